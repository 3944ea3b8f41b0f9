/**
 * Errors meant for users carry a stable code and a one-line message; anything
 * else that escapes is a bug. Edges print `code: message` and add the stack
 * only when debugging was asked for.
 */
export class UserError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flag, missing argument, unknown command. Exit 2. */
export class UsageError extends UserError {
  constructor(message: string) {
    super('usage', message);
  }
}

/** Invalid configuration or scope file, or an invalid Action input. Exit 2. */
export class ConfigurationError extends UserError {
  constructor(message: string, code = 'config') {
    super(code, message);
  }
}

/** An input file that cannot be read at all (missing, refused, unreadable). Exit 2. */
export class InputError extends UserError {
  constructor(
    readonly file: string,
    readonly line: number | null,
    code: string,
    message: string,
  ) {
    super(code, message);
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/** One line for a user: `code: message`, with the stack only when debugging. */
export function describeError(error: unknown, debug: boolean): string {
  if (isUserError(error)) {
    return debug && error.stack ? `${error.code}: ${error.message}\n${error.stack}` : `${error.code}: ${error.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const head = `internal-error: ${message.split('\n')[0]} (this is a bug in agent-trace-audit; rerun with --debug for details)`;
  return debug && error instanceof Error && error.stack ? `${head}\n${error.stack}` : head;
}
