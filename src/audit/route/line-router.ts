/**
 * The routing thread's half of one file read by several threads: splits the bytes
 * on `\n` as the line splitter does (BOM, CR, over-long lines, the last line without
 * a newline, the file's facts), and appends each line, as bytes, to the batch of the
 * thread that owns its run (RouteKey). No line is decoded or parsed here unless the
 * byte search cannot place it. Blank lines are counted, not sent.
 */
import { blankBytes, blankRun, isBlankByte } from '../../io/blank-lines.js';
import type { FileFacts } from '../../io/line-splitter.js';
import { ownerOf, type RouteKey } from './route-key.js';

const NEWLINE = 0x0a;
/** A batch is sent when it holds this many bytes (the receiving thread decodes it in one piece). */
export const BATCH_BYTES = 64 * 1024;

/** One thread's share of consecutive lines: their bytes, each followed by `\n`, and their line numbers. Plain data. */
export interface LineBatch {
  readonly bytes: Uint8Array;
  readonly lines: Int32Array;
  /** Over-long lines (their line number and length), not in `bytes`. */
  readonly tooLong: ReadonlyArray<readonly [number, number]>;
  /** The batch's last line is the file's last and has no newline. */
  readonly unterminated: boolean;
}

/**
 * The lines bound for one thread. Consecutive lines of one chunk (most of a file,
 * when its runs come one after another) are kept as one range of the chunk and copied
 * in one piece when the range ends, not line by line; `settle` copies what is kept
 * before the chunk is reused.
 */
class Batch {
  bytes = Buffer.allocUnsafeSlow(BATCH_BYTES);
  used = 0;
  lines: number[] = [];
  tooLong: Array<[number, number]> = [];
  #source: Buffer | null = null;
  #from = 0;
  #to = 0;

  /** Adds the line `source[start, end)`; `source[end]` is its newline when it has one there. */
  add(source: Buffer, start: number, end: number, line: number): void {
    this.lines.push(line);
    if (this.#source === source && this.#to === start && source[end] === NEWLINE) {
      this.#to = end + 1;
      return;
    }
    this.settle();
    if (source[end] === NEWLINE) {
      this.#source = source;
      this.#from = start;
      this.#to = end + 1;
      return;
    }
    this.#copy(source, start, end);
    this.bytes[this.used] = NEWLINE;
    this.used += 1;
  }

  /** Copies the range still kept of a chunk. */
  settle(): void {
    if (this.#source === null) return;
    this.#copy(this.#source, this.#from, this.#to);
    this.#source = null;
  }

  /** Bytes held, kept ranges included. */
  get size(): number {
    return this.used + (this.#source === null ? 0 : this.#to - this.#from);
  }

  #copy(source: Buffer, start: number, end: number): void {
    const length = end - start;
    if (this.used + length + 1 > this.bytes.length) this.#grow(length + 1);
    source.copy(this.bytes, this.used, start, end);
    this.used += length;
  }

  #grow(need: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + need));
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }

  take(unterminated: boolean): LineBatch {
    this.settle();
    const batch: LineBatch = { bytes: this.bytes.subarray(0, this.used), lines: Int32Array.from(this.lines), tooLong: this.tooLong, unterminated };
    this.bytes = Buffer.allocUnsafeSlow(BATCH_BYTES);
    this.used = 0;
    this.lines = [];
    this.tooLong = [];
    return batch;
  }

  get empty(): boolean {
    return this.lines.length === 0 && this.tooLong.length === 0;
  }
}

export class LineRouter {
  readonly facts: FileFacts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
  readonly #batches: Batch[];
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #skipping = false;
  #skippedBytes = 0;
  #first = true;

  constructor(
    private readonly key: RouteKey,
    private readonly maxLineBytes: number,
    /** Sends a full batch to its thread; resolves when the thread can take more. */
    private readonly send: (thread: number, batch: LineBatch) => Promise<void> | undefined,
  ) {
    this.#batches = Array.from({ length: key.threads }, () => new Batch());
  }

  /** Routes the lines `chunk` completes (the chunk may be reused by the caller afterwards). */
  async feed(chunk: Buffer): Promise<void> {
    this.key.forget();
    try {
      await this.#feed(chunk);
    } finally {
      for (const batch of this.#batches) batch.settle();
    }
  }

  async #feed(chunk: Buffer): Promise<void> {
    this.facts.bytes += chunk.length;
    let start = 0;
    if (this.#first) {
      this.#first = false;
      if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        this.facts.bom = true;
        start = 3;
      }
    }
    while (start < chunk.length) {
      if (this.#pendingBytes === 0 && !this.#skipping && (chunk[start] === NEWLINE || isBlankByte(chunk[start]!))) {
        // A stretch of one blank line repeated (a newline bomb) is counted in a few native compares.
        const run = blankRun(chunk, start);
        if (run.lines > 0) {
          this.facts.lines += run.lines;
          start = run.end;
          continue;
        }
      }
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.#keep(chunk, start, chunk.length);
        break;
      }
      let wait: Promise<void> | undefined;
      if (this.#pendingBytes === 0 && !this.#skipping && nl - start <= this.maxLineBytes) {
        this.facts.lines += 1;
        wait = this.#route(chunk, start, nl, false);
      } else {
        this.#keep(chunk, start, nl);
        wait = this.#finishPending(false);
      }
      start = nl + 1;
      // Awaited only when a batch went out and its thread is busy: not once per line.
      if (wait) await wait;
    }
  }

  /** The last line (when the file does not end with a newline), then every batch still held. */
  async end(): Promise<void> {
    if (this.#skipping || this.#pendingBytes > 0) {
      this.facts.missingFinalNewline = true;
      await this.#finishPending(true);
    }
    for (let thread = 0; thread < this.#batches.length; thread += 1) {
      const batch = this.#batches[thread]!;
      if (!batch.empty) await this.send(thread, batch.take(false));
    }
  }

  #keep(chunk: Buffer, start: number, end: number): void {
    const length = end - start;
    if (this.#skipping) this.#skippedBytes += length;
    else if (this.#pendingBytes + length > this.maxLineBytes) {
      this.#skipping = true;
      this.#skippedBytes = this.#pendingBytes + length;
      this.#pending = [];
      this.#pendingBytes = 0;
    } else if (length > 0) {
      this.#pending.push(Buffer.from(chunk.subarray(start, end)));
      this.#pendingBytes += length;
    }
  }

  #finishPending(last: boolean): Promise<void> | undefined {
    this.facts.lines += 1;
    if (this.#skipping) {
      // Over-long lines go where lines without a run go: the thread of the '' run.
      const owner = ownerOf(null, this.key.threads);
      this.#batches[owner]!.tooLong.push([this.facts.lines, this.#skippedBytes]);
      this.#skipping = false;
      this.#skippedBytes = 0;
      return last ? this.#flush(owner, true) : undefined;
    }
    const bytes = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    return this.#route(bytes, 0, bytes.length, last);
  }

  #route(bytes: Buffer, start: number, end: number, last: boolean): Promise<void> | undefined {
    if (blankBytes(bytes, start, end)) return undefined;
    const owner = this.key.owner(bytes, start, end);
    const batch = this.#batches[owner]!;
    batch.add(bytes, start, end, this.facts.lines);
    return last || batch.size >= BATCH_BYTES ? this.#flush(owner, last) : undefined;
  }

  #flush(owner: number, last: boolean): Promise<void> | undefined {
    return this.send(owner, this.#batches[owner]!.take(last));
  }
}
