import { isUtf8 } from 'node:buffer';
import { limitText } from './limits.js';

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
/** Runs of newlines and of CRLFs a blank stretch is compared with (made on first use; longer stretches take the loop). */
const RUN_BYTES = 1024 * 1024;
let newlines: Buffer | null = null;
let crlfs: Buffer | null = null;

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
  const splitter = new LineSplitter(maxLineBytes, facts);
  for await (const chunk of chunks) {
    const batch = splitter.batch(chunk);
    if (batch.length > 0) yield batch;
  }
  const last = splitter.end();
  if (last !== null) yield [last];
}

/**
 * The line splitting of splitLines, fed one chunk at a time and synchronous.
 * Blank lines (nothing but spaces, tabs and CRs) are not given, only counted:
 * every reader skips them, and a newline bomb then makes no object per line.
 * In a chunk,
 * `lines(chunk)` yields, lazily, the lines the chunk ends (each decoded only when
 * it is reached, so a consumer that handles one line at a time holds one line),
 * `batch(chunk)` gives them all at once (decoded together: the fast way when they
 * are all kept until the chunk is done), and `end()` the last line when the file
 * does not end with a newline.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false; // inside an over-long line
  private skippedBytes = 0;
  private lineNo = 0;
  private first = true;

  constructor(
    private readonly maxLineBytes: number,
    private readonly facts: FileFacts,
  ) {}

  /** The lines `chunk` completes; iterate to the end before feeding the next chunk. */
  lines(chunk: Buffer): Generator<LineEvent> {
    return this.split(chunk, false);
  }

  /** The lines `chunk` completes, in one array. */
  batch(chunk: Buffer): LineEvent[] {
    // The fast path pushes its lines into `out` directly (no iterator result per line);
    // only the lines of the careful path come through the generator.
    const out: LineEvent[] = [];
    for (const event of this.split(chunk, true, out)) out.push(event);
    return out;
  }

  private *split(chunk: Buffer, wholeRuns: boolean, out: LineEvent[] = []): Generator<LineEvent> {
    const maxLineBytes = this.maxLineBytes;
    this.facts.bytes += chunk.length;
    if (this.first) {
      this.first = false;
      if (chunk.length >= 3 && chunk[0] === BOM[0] && chunk[1] === BOM[1] && chunk[2] === BOM[2]) {
        this.facts.bom = true;
        chunk = chunk.subarray(3);
      }
    }
    let start = 0;
    while (start < chunk.length) {
      if (!this.skipping && this.pending.length === 0) {
        // Fast path: every whole line left in the chunk at once, when they are valid UTF-8
        // and none can be over the limit: one check for all of them, then one decode for
        // all of them (wholeRuns) or one per line as it is reached.
        const last = chunk.lastIndexOf(NEWLINE);
        const blank = last > start ? blankLines(chunk, start, last) : -1;
        if (blank >= 0) {
          // Only spaces, tabs, CRs and newlines up to the last newline (a newline bomb):
          // counted, nothing decoded or made.
          this.lineNo += blank;
          start = last + 1;
          continue;
        }
        let stop = last;
        if (wholeRuns && last - start > DECODE_SEGMENT) {
          // Decoded together in segments of about DECODE_SEGMENT bytes: a string value
          // JSON.parse takes from a line may be a slice of the decoded text, and a record
          // kept for its run then keeps that whole text alive, so the texts stay small.
          const cut = chunk.lastIndexOf(NEWLINE, start + DECODE_SEGMENT);
          stop = cut > start ? cut : chunk.indexOf(NEWLINE, start + DECODE_SEGMENT);
        }
        if (stop > start && stop - start <= maxLineBytes && isUtf8(chunk.subarray(start, stop))) {
          if (wholeRuns) {
            for (const raw of chunk.toString('utf8', start, stop).split('\n')) {
              this.lineNo += 1;
              if (isBlank(raw)) continue;
              out.push({ type: 'line', line: this.lineNo, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, terminated: true });
            }
          } else {
            for (let from = start; from <= stop; ) {
              const nl = chunk.indexOf(NEWLINE, from);
              const end = nl > from && chunk[nl - 1] === CR ? nl - 1 : nl;
              this.lineNo += 1;
              if (!blankBytes(chunk, from, end)) yield { type: 'line', line: this.lineNo, text: chunk.toString('utf8', from, end), terminated: true };
              from = nl + 1;
            }
          }
          start = stop + 1;
          continue;
        }
      }
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (this.skipping) {
        this.skippedBytes += piece.length;
      } else if (this.pendingBytes + piece.length > maxLineBytes) {
        this.skipping = true;
        this.skippedBytes = this.pendingBytes + piece.length;
        this.pending = [];
        this.pendingBytes = 0;
      } else if (piece.length > 0) {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
      }
      if (nl === -1) break;
      this.lineNo += 1;
      if (this.skipping) {
        yield tooLong(this.lineNo, this.skippedBytes, maxLineBytes, true);
        this.skipping = false;
        this.skippedBytes = 0;
      } else {
        const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
        this.pending = [];
        this.pendingBytes = 0;
        const event = decode(this.lineNo, bytes, true);
        if (event.type === 'bad-line' || !isBlank(event.text)) yield event;
      }
      start = nl + 1;
    }
    // Copy what we keep of this chunk so the chunk itself can be released.
    const pending = this.pending;
    if (pending.length > 0 && pending[pending.length - 1]!.buffer === chunk.buffer) {
      pending[pending.length - 1] = Buffer.from(pending[pending.length - 1]!);
    }
  }

  /** The last line, when the file ends without a newline (or null); the facts are complete after it. */
  end(): LineEvent | null {
    let last: LineEvent | null = null;
    if (this.skipping) {
      this.lineNo += 1;
      this.facts.missingFinalNewline = true;
      last = tooLong(this.lineNo, this.skippedBytes, this.maxLineBytes, false);
    } else if (this.pendingBytes > 0) {
      this.lineNo += 1;
      this.facts.missingFinalNewline = true;
      last = decode(this.lineNo, this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes), false);
      if (last.type === 'line' && isBlank(last.text)) last = null;
    }
    this.facts.lines = this.lineNo;
    return last;
  }
}

/**
 * The number of lines in `chunk[start..stop]` (`stop` is a newline) when every byte is
 * a space, tab, CR or newline; -1 otherwise. A loop over bytes: about 1 GB/s.
 */
function blankLines(chunk: Buffer, start: number, stop: number): number {
  const length = stop + 1 - start;
  // Only newlines, or only CRLFs: one native comparison.
  if (length <= RUN_BYTES && chunk[start] === NEWLINE && chunk[stop - 1] === NEWLINE) {
    newlines ??= Buffer.alloc(RUN_BYTES, NEWLINE);
    if (newlines.compare(chunk, start, stop + 1, 0, length) === 0) return length;
  }
  if (length <= RUN_BYTES && length % 2 === 0 && chunk[start] === CR && chunk[stop - 1] === CR) {
    crlfs ??= Buffer.from('\r\n'.repeat(RUN_BYTES / 2));
    if (crlfs.compare(chunk, start, stop + 1, 0, length) === 0) return length / 2;
  }
  let lines = 0;
  for (let i = start; i <= stop; i += 1) {
    const c = chunk[i]!;
    if (c === NEWLINE) lines += 1;
    else if (c !== 0x20 && c !== 0x09 && c !== CR) return -1;
  }
  return lines;
}

/** Nothing but spaces, tabs and CRs (what every reader skips as a blank line). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
}

function blankBytes(chunk: Buffer, from: number, end: number): boolean {
  for (let i = from; i < end; i += 1) {
    const c = chunk[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
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
  return { type: 'bad-line', line, code: 'line-too-long', detail: `line of ${bytes} bytes is longer than the ${limitText('maxLineBytes', max)}`, terminated };
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

/** One line's bytes (no `\n`) as the splitter gives it, and an over-long line: for the lines a router sends to a thread. */
export { decode as decodeLine, tooLong as tooLongLine };
