/** One logger for the core, implemented by the CLI (stderr) and the Action (@actions/core). */
export interface Logger {
  info(message: string): void;
  warning(message: string, where?: { file: string; line?: number }): void;
  error(message: string): void;
  debug(message: string): void;
}

/** For callers that want no output (tests, library use). */
export const silentLogger: Logger = {
  info() {},
  warning() {},
  error() {},
  debug() {},
};
