import { HEAD_BYTES } from '../../io/trace-file.js';
import { eachLine, type ParseInput } from '../types.js';

/** How a file starts: enough to tell JSON lines from one JSON document without reading it whole. */
export interface Peek {
  /** Text of the first non-blank line, when it could be read as a line. */
  readonly first: string | null;
  readonly firstIsJson: boolean;
  readonly firstTooLong: boolean;
  /** Another non-blank line follows. */
  readonly more: boolean;
}

/**
 * Reads up to the second non-blank line (the whole file only when it has one line).
 * A file is JSON lines when `isJsonLines(peek)`: its first non-blank line is JSON
 * (or too long to read as a line) and more lines follow. A pretty-printed document
 * starts with a line like `{` or `[`, which is not JSON on its own.
 */
export async function peekLines(input: ParseInput): Promise<Peek> {
  let first: string | null = null;
  let firstIsJson = false;
  let firstTooLong = false;
  let seenFirst = false;
  for await (const event of eachLine(input)) {
    if (event.type === 'line' && event.text.trim() === '') continue;
    if (seenFirst) return { first, firstIsJson, firstTooLong, more: true };
    seenFirst = true;
    if (event.type === 'bad-line') {
      firstTooLong = event.code === 'line-too-long';
      continue;
    }
    first = event.text;
    try {
      JSON.parse(first);
      firstIsJson = true;
    } catch {
      return { first, firstIsJson, firstTooLong, more: true };
    }
  }
  return { first, firstIsJson, firstTooLong, more: false };
}

/** One record per line, to be streamed (not one document to read whole). */
export function isJsonLines(peek: Peek): boolean {
  return peek.more && (peek.firstIsJson || peek.firstTooLong);
}

/**
 * The same question answered from the detection sample's head, without reading
 * the file again (a read to the end of a one-line document would mark it as
 * missing its final newline): true for JSON lines, false for one document, null
 * when the head cannot tell (the first line, or what follows it, is past the head).
 * A first line longer than the head that opens a list is a document.
 */
export function headShowsJsonLines(head: Buffer): boolean | null {
  // Shorter than the sample size (less a BOM): the head is the whole file.
  const headIsWholeFile = head.length < HEAD_BYTES - 3;
  const text = head.toString('utf8');
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    const line = (end === -1 ? text.slice(start) : text.slice(start, end)).replace(/\r$/, '');
    if (line.trim() !== '') {
      if (end === -1) return headIsWholeFile ? false : line.trimStart().startsWith('[') ? false : null;
      try {
        JSON.parse(line);
      } catch {
        return false;
      }
      if (text.slice(end + 1).trim() !== '') return true;
      return headIsWholeFile ? false : null;
    }
    if (end === -1) return headIsWholeFile ? false : null;
    start = end + 1;
  }
}
