import type { Writable } from 'node:stream';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';
import type { Logger } from '../logger.js';

/** Where a command writes: stdout for the report, stderr for messages. Injected for tests. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  /** The stream behind `stdout`, when there is one: a large report is written to it with backpressure. */
  readonly stdoutStream?: Writable;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The bundle to start audit workers from; absent in tests that call runCli directly. */
  readonly workerEntry?: URL;
  /** Tunes the process's heap for a command (the real entry passes `limitHeapGrowth`); absent in tests that call runCli directly. */
  readonly tuneHeap?: (env: NodeJS.ProcessEnv) => void;
}

export function consoleLogger(io: CliIO, debug: boolean): Logger {
  return {
    info: (message) => io.stderr(`${message}\n`),
    warning: (message) => io.stderr(`warning: ${message}\n`),
    error: (message) => io.stderr(`error: ${message}\n`),
    debug: (message) => {
      if (debug) io.stderr(`debug: ${message}\n`);
    },
  };
}

/** node:util parseArgs with usage errors that name the flag, never a stack trace. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]!.replace(/\. To specify a positional.*$/, '') : 'bad arguments';
    throw new UsageError(`${message}\n${usage}`);
  }
}

/** Checks that a flag's value is one of the allowed words. */
export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`);
  }
  return value as T;
}
