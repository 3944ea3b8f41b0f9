import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Finding } from '../../model/finding.js';
import type { Report } from '../schema.js';

/**
 * The JSON report as one string (a merged report, tests): the pieces of
 * `renderJsonPieces` joined, the one JSON renderer.
 */
export function renderJson(report: Report): string {
  return [...renderJsonPieces(report)].join('');
}

/** Pieces written at a time: about this many characters. */
const PIECE_CHARS = 64 * 1024;

/**
 * The JSON report (two-space indented, keys in schema order, trailing newline: the
 * bytes of `JSON.stringify(report, null, 2)` and a newline), in pieces of about
 * 64 KiB, reading the findings one at a time (from a store that may be on disk):
 * memory holds one piece, never the report text. Lists (the findings, and the runs and catalogs, one entry per run of
 * the audit) are rendered an element at a time; every other key is small and
 * rendered whole, re-indented one level, as `JSON.stringify(report, null, 2)` would.
 */
export function* renderJsonPieces(report: Report<Iterable<Finding>>): Generator<string, void, undefined> {
  let pending = '{';
  let first = true;
  for (const [key, value] of Object.entries(report)) {
    const head = `${first ? '' : ','}\n  ${JSON.stringify(key)}: `;
    if (key === 'findings' || Array.isArray(value)) {
      pending += `${head}[`;
      let count = 0;
      for (const item of value as Iterable<unknown>) {
        // JSON.stringify writes an element it cannot represent (undefined, a function) as null.
        const text = (JSON.stringify(item, null, 2) as string | undefined) ?? 'null';
        pending += `${count === 0 ? '' : ','}\n    ${indent(text, '    ')}`;
        count += 1;
        if (pending.length >= PIECE_CHARS) {
          yield pending;
          pending = '';
        }
      }
      pending += count === 0 ? ']' : '\n  ]';
    } else {
      // JSON.stringify leaves out keys whose value is undefined (or a function): so does this.
      const text = JSON.stringify(value, null, 2) as string | undefined;
      if (text === undefined) continue;
      pending += `${head}${indent(text, '  ')}`;
    }
    first = false;
    if (pending.length >= PIECE_CHARS) {
      yield pending;
      pending = '';
    }
  }
  yield `${pending}${first ? '}' : '\n}'}\n`;
}

/**
 * Writes the pieces to a stream, waiting whenever it is full (backpressure).
 * `end: false` leaves the stream open (stdout).
 */
export async function writePieces(pieces: Iterable<string>, out: Writable, options: { readonly end?: boolean } = {}): Promise<void> {
  await pipeline(Readable.from(pieces, { objectMode: false }), out, { end: options.end ?? true });
}

/** Writes the JSON report to a file in pieces. */
export async function writeJsonFile(report: Report<Iterable<Finding>>, path: string): Promise<void> {
  await writePieces(renderJsonPieces(report), createWriteStream(path));
}

/** JSON.stringify output has no raw line breaks but its own: indenting every line is a plain replace. */
function indent(text: string, by: string): string {
  return text.replaceAll('\n', `\n${by}`);
}
