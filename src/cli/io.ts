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
  /**
   * Set by `guardMessages` when stdout is a pipe (a `run:` step's log): stdout as it is, for
   * data that must keep its bytes or its JSON value (see `writeJson`, the sealed chain).
   */
  readonly stdoutData?: (text: string) => void;
}

/**
 * The CLI's output as the Actions runner may read it (a `run:` step). Every text written to
 * stderr (errors that quote configuration keys and values, warnings that name paths and ids)
 * passes the workflow-command guard the Action's log uses, so a key holding `\n::error::…` or
 * `::add-mask::…` is printed as text, never run as a command. So does every text written to
 * stdout when stdout is a pipe (the runner reads a step's stdout through one): a text or
 * markdown report, `verify`'s lines, a transcript's text. JSON goes through `writeJson`. A
 * terminal or a file stdout was redirected to (`> report.md`, `>> $GITHUB_STEP_SUMMARY`) is
 * not read for commands, and gets the output unchanged.
 */
export function guardMessages(io: CliIO): CliIO {
  const guarded = { ...io, stderr: (text: string) => io.stderr(guardCommands(text)) };
  if (io.stdoutIsTerminal !== false || io.stdoutFile) return guarded;
  return { ...guarded, stdout: (text) => io.stdout(guardCommands(text)), stdoutData: io.stdout };
}

/**
 * A JSON text (report, SARIF, transcript) to stdout. A JSON line never starts with `::`
 * (strings keep their newlines escaped); where the runner reads stdout, the other command
 * form, `##[` anywhere in a line, is written `#\u0023[`: the same JSON value, no command.
 */
export function writeJson(io: CliIO, text: string): void {
  if (io.stdoutData) io.stdoutData(jsonForRunner(text));
  else io.stdout(text);
}

/** The pieces of a streamed JSON report, made safe as `writeJson` does when stdout is read by the runner. */
export function* jsonPieces(io: CliIO, pieces: Iterable<string>): Generator<string> {
  for (const piece of pieces) yield io.stdoutData ? jsonForRunner(piece) : piece;
}

/** `##[` occurs in JSON inside a string only (and a piece never cuts a string): `#\u0023[` is the same value. */
function jsonForRunner(text: string): string {
  return text.replaceAll('##[', '#\\u0023[');
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
