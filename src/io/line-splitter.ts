import { isUtf8 } from 'node:buffer';
import { blankLines, isBlank } from './blank-lines.js';
import { limitText } from './limits.js';
import { firstInvalidByte } from './utf8-offset.js';

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
 * The one line splitter: splits a byte stream, fed one chunk at a time, on raw `\n`
 * bytes. Each line is decoded as strict UTF-8 (invalid bytes are reported, never
 * replaced), a CR before the newline is dropped, a BOM at the start is dropped and
 * flagged, and a line longer than `maxLineBytes` is reported and skipped without
 * being held in memory. Blank lines (nothing but spaces, tabs and CRs) are not
 * given, only counted: every reader skips them, and a newline bomb then makes no
 * object per line.
 *
 * `split(chunk)` gives the lines the chunk completes; `end()` the last line when the
 * file does not end with a newline, after which the facts are complete. The chunk
 * may be reused by the caller once `split` returns: what is kept of it is copied.
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

  /** The lines `chunk` completes, in order. */
  split(chunk: Buffer): LineEvent[] {
    const out: LineEvent[] = [];
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
      const next = !this.skipping && this.pending.length === 0 ? this.wholeLines(chunk, start, out) : -1;
      start = next >= 0 ? next : this.carefulLine(chunk, start, out);
    }
    // Copy what we keep of this chunk so the chunk itself can be released.
    const pending = this.pending;
    if (pending.length > 0 && pending[pending.length - 1]!.buffer === chunk.buffer) {
      pending[pending.length - 1] = Buffer.from(pending[pending.length - 1]!);
    }
    return out;
  }

  /**
   * The fast path: the whole lines from `start` at once, when they are valid UTF-8 and
   * none can be over the limit (one check for all, one decode per segment of about
   * DECODE_SEGMENT bytes). Returns where it stopped, or -1 for the careful path.
   */
  private wholeLines(chunk: Buffer, start: number, out: LineEvent[]): number {
    const last = chunk.lastIndexOf(NEWLINE);
    if (last < start) return -1;
    const blank = last > start ? blankLines(chunk, start, last) : -1;
    if (blank >= 0) {
      // Only spaces, tabs, CRs and newlines up to the last newline (a newline bomb): counted, nothing decoded or made.
      this.lineNo += blank;
      return last + 1;
    }
    let stop = last;
    if (last - start > DECODE_SEGMENT) {
      // A string value JSON.parse takes from a line may be a slice of the decoded text, and a
      // record kept for its run then keeps that whole text alive, so the texts stay small.
      const cut = chunk.lastIndexOf(NEWLINE, start + DECODE_SEGMENT);
      stop = cut > start ? cut : chunk.indexOf(NEWLINE, start + DECODE_SEGMENT);
    }
    if (!(stop > start && stop - start <= this.maxLineBytes && isUtf8(chunk.subarray(start, stop)))) return -1;
    for (const raw of chunk.toString('utf8', start, stop).split('\n')) {
      this.lineNo += 1;
      if (isBlank(raw)) continue;
      out.push({ type: 'line', line: this.lineNo, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, terminated: true });
    }
    return stop + 1;
  }

  /** One line (or the start of one) piece by piece: a line across chunks, over the limit, or not UTF-8. */
  private carefulLine(chunk: Buffer, start: number, out: LineEvent[]): number {
    const maxLineBytes = this.maxLineBytes;
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
    if (nl === -1) return chunk.length;
    this.lineNo += 1;
    if (this.skipping) {
      out.push(tooLong(this.lineNo, this.skippedBytes, maxLineBytes, true));
      this.skipping = false;
      this.skippedBytes = 0;
    } else {
      const event = decode(this.lineNo, this.takePending(), true);
      if (event.type === 'bad-line' || !isBlank(event.text)) out.push(event);
    }
    return nl + 1;
  }

  private takePending(): Buffer {
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return bytes;
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
      last = decode(this.lineNo, this.takePending(), false);
      if (last.type === 'line' && isBlank(last.text)) last = null;
    }
    this.facts.lines = this.lineNo;
    return last;
  }
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

/** One line's bytes (no `\n`) as the splitter gives it, and an over-long line: for the lines a router sends to a thread. */
export { decode as decodeLine, tooLong as tooLongLine };
