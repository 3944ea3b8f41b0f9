import { isUtf8 } from 'node:buffer';

/** One line of a file, decoded, or the reason it could not be. Line numbers are 1-based. */
export type LineEvent =
  | { readonly type: 'line'; readonly line: number; readonly text: string; readonly terminated: boolean }
  | { readonly type: 'bad-line'; readonly line: number; readonly code: 'invalid-utf8' | 'line-too-long'; readonly detail: string; readonly terminated: boolean };

/** Facts about the whole file, known once its lines have been read. */
export interface FileFacts {
  bytes: number;
  lines: number;
  bom: boolean;
  /** The last line had content and no final newline. */
  missingFinalNewline: boolean;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf] as const;
const DECODE_SEGMENT = 64 * 1024;

/**
 * Splits a byte stream on raw `\n` bytes. Each line is decoded as strict UTF-8
 * (invalid bytes are reported, never replaced), a CR before the newline is
 * dropped, a BOM at the start is dropped and flagged, and a line longer than
 * `maxLineBytes` is reported and skipped without being held in memory.
 */
export async function* splitLines(chunks: AsyncIterable<Buffer>, maxLineBytes: number, facts: FileFacts): AsyncGenerator<LineEvent> {
  for await (const batch of splitLineBatches(chunks, maxLineBytes, facts)) yield* batch;
}

/** The same lines, one array per chunk read: the fast path (one await per chunk, not per line). */
export async function* splitLineBatches(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes: number,
  facts: FileFacts,
): AsyncGenerator<LineEvent[]> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false; // inside an over-long line
  let skippedBytes = 0;
  let lineNo = 0;
  let first = true;

  for await (let chunk of chunks) {
    const batch: LineEvent[] = [];
    facts.bytes += chunk.length;
    if (first) {
      first = false;
      if (chunk.length >= 3 && chunk[0] === BOM[0] && chunk[1] === BOM[1] && chunk[2] === BOM[2]) {
        facts.bom = true;
        chunk = chunk.subarray(3);
      }
    }
    let start = 0;
    while (start < chunk.length) {
      if (!skipping && pending.length === 0) {
        // Fast path: every whole line left in the chunk at once, when they are valid UTF-8
        // and none can be over the limit: one decode and one split instead of one per line.
        // Decoded in segments of about DECODE_SEGMENT bytes: a string value that
        // JSON.parse takes from a line may be a slice of the decoded text, and a record
        // kept for its run then keeps that whole text alive, so the texts stay small.
        const last = chunk.lastIndexOf(NEWLINE);
        if (last > start) {
          let end = last;
          if (end - start > DECODE_SEGMENT) {
            const cut = chunk.lastIndexOf(NEWLINE, start + DECODE_SEGMENT);
            end = cut > start ? cut : chunk.indexOf(NEWLINE, start + DECODE_SEGMENT);
          }
          if (end - start <= maxLineBytes && isUtf8(chunk.subarray(start, end))) {
            lineNo = pushLines(chunk.toString('utf8', start, end), lineNo, batch);
            start = end + 1;
            continue;
          }
        }
      }
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (skipping) {
        skippedBytes += piece.length;
      } else if (pendingBytes + piece.length > maxLineBytes) {
        skipping = true;
        skippedBytes = pendingBytes + piece.length;
        pending = [];
        pendingBytes = 0;
      } else if (piece.length > 0) {
        pending.push(piece);
        pendingBytes += piece.length;
      }
      if (nl === -1) break;
      lineNo += 1;
      if (skipping) {
        batch.push(tooLong(lineNo, skippedBytes, maxLineBytes, true));
        skipping = false;
        skippedBytes = 0;
      } else {
        const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
        batch.push(decode(lineNo, bytes, true));
        pending = [];
        pendingBytes = 0;
      }
      start = nl + 1;
    }
    // Copy what we keep of this chunk so the chunk itself can be released.
    if (pending.length > 0 && pending[pending.length - 1]!.buffer === chunk.buffer) {
      pending[pending.length - 1] = Buffer.from(pending[pending.length - 1]!);
    }
    if (batch.length > 0) yield batch;
  }

  if (skipping) {
    lineNo += 1;
    facts.missingFinalNewline = true;
    yield [tooLong(lineNo, skippedBytes, maxLineBytes, false)];
  } else if (pendingBytes > 0) {
    lineNo += 1;
    facts.missingFinalNewline = true;
    yield [decode(lineNo, pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes), false)];
  }
  facts.lines = lineNo;
}

/** The lines of a decoded run of whole lines (each had its newline); returns the last line number. */
function pushLines(text: string, lineNo: number, batch: LineEvent[]): number {
  let line = lineNo;
  for (const raw of text.split('\n')) {
    line += 1;
    batch.push({ type: 'line', line, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, terminated: true });
  }
  return line;
}

function decode(line: number, bytes: Buffer, terminated: boolean): LineEvent {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
  const body = end === bytes.length ? bytes : bytes.subarray(0, end);
  if (!isUtf8(body)) {
    return { type: 'bad-line', line, code: 'invalid-utf8', detail: `invalid UTF-8 at byte ${firstInvalidByte(body)} of the line`, terminated };
  }
  return { type: 'line', line, text: body.toString('utf8'), terminated };
}

function tooLong(line: number, bytes: number, max: number, terminated: boolean): LineEvent {
  return { type: 'bad-line', line, code: 'line-too-long', detail: `line of ${bytes} bytes is longer than the limit of ${max} bytes`, terminated };
}

/** Offset of the first byte that makes the buffer invalid UTF-8 (for the message only). */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // overlong
      if (b === 0xed) hi = 0x9f; // encoded surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (c === undefined || c < min || c > max) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}
