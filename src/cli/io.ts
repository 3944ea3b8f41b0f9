import type { Writable } from 'node:stream';
import type { Logger } from '../logger.js';
import { guardCommands } from '../github/command-guard.js';

/** Where a command writes: stdout for the report, stderr for messages. Injected for tests. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  /** The stream behind `stdout`, when there is one: a large report is written to it with backpressure. */
  readonly stdoutStream?: Writable;
  readonly stderr: (text: string) => void;
  /** False when stdout is redirected or piped (seal then writes the chain to it); absent: a terminal. */
  readonly stdoutIsTerminal?: boolean;
  /** The regular file stdout was redirected to, when the system says (seal puts the checkpoint beside it). */
  readonly stdoutFile?: string | null;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The bundle to start audit workers from; absent in tests that call runCli directly. */
  readonly workerEntry?: URL;
  /** Tunes the process's heap for a command (the real entry passes `limitHeapGrowth`); absent in tests that call runCli directly. */
  readonly tuneHeap?: (env: NodeJS.ProcessEnv) => void;
}

/**
 * The CLI's messages as the Actions runner may read them (a `run:` step): every text written
 * to stderr (errors that quote configuration keys and values, warnings that name paths and
 * ids) passes the workflow-command guard the Action's log uses, so a key holding
 * `\n::error::…` or `::add-mask::…` is printed as text, never run as a command.
 */
export function guardMessages(io: CliIO): CliIO {
  return { ...io, stderr: (text) => io.stderr(guardCommands(text)) };
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
