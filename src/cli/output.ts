import { access, constants, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { unwritable } from '../io/file-errors.js';
import type { CliIO } from './io.js';
import type { VerdictLines } from '../report/verdict/judge.js';

/** A report file named with --output: checked before the work starts, written when it is done. */
export interface OutputFile {
  readonly path: string;
  readonly display: string;
  write(text: string): Promise<void>;
}

/**
 * Checks that `display` (relative to the working folder) can be written, so a
 * mistyped --output is a one-line `unwritable` error before a long audit, not
 * after it. Any write failure later is the same error.
 */
export async function outputFile(io: CliIO, display: string): Promise<OutputFile> {
  const path = resolve(io.cwd, display);
  await access(dirname(path), constants.W_OK).catch((error: unknown) => {
    throw unwritable(display, error);
  });
  return {
    path,
    display,
    write: (text) =>
      writeFile(path, text).catch((error: unknown) => {
        throw unwritable(display, error);
      }),
  };
}

/** Runs a write to `output` and turns its system error into `unwritable`. */
export async function writingTo<T>(output: OutputFile, write: (path: string) => Promise<T>): Promise<T> {
  try {
    return await write(output.path);
  } catch (error) {
    throw unwritable(output.display, error);
  }
}

/**
 * The exit code, and the one-line verdict (and its notes) on stderr when the
 * report went to a file (the text and markdown reports start with them).
 */
export function verdictOut(io: CliIO, judged: VerdictLines, toStderr: boolean): number {
  if (toStderr) io.stderr(`${[judged.verdict.headline, ...judged.notes].join('\n')}\n`);
  return judged.verdict.failed ? 1 : 0;
}
