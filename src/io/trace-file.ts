import { openByteSource, type ByteCap, type ByteSource } from './byte-source.js';
import type { ReadLimits } from './limits.js';
import { LineSplitter, type FileFacts, type LineEvent } from './line-splitter.js';
import type { DetectSample, ParseInput } from './parse-input.js';

/** The detection sample's size: a file shorter than this (less a BOM) is all in its head. */
export const HEAD_BYTES = 1024 * 1024;
const SAMPLE_LINES = 8;

/** One input file opened for reading: its detection sample and a re-readable parse input. */
export interface OpenedTraceFile {
  readonly sample: DetectSample;
  readonly input: ParseInput;
  readonly facts: FileFacts;
  /** Problems of the byte stream (gzip cut short, inflate cap), set once the input was read. */
  readonly sources: ByteSource[];
}

export async function openTraceFile(path: string, display: string, limits: ReadLimits): Promise<OpenedTraceFile> {
  const { sample, whole } = await readSample(path, display, limits);
  const facts: FileFacts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
  const sources: ByteSource[] = [];
  const input: ParseInput = {
    file: display,
    limits,
    head: sample.head,
    async *lineBatches(): AsyncGenerator<LineEvent[]> {
      // A small plain file was read whole for its sample: its lines come from those bytes (no second open).
      const source = whole !== null ? bytesSource(whole) : await openByteSource(path, limits);
      sources.push(source);
      Object.assign(facts, { bytes: 0, lines: 0, bom: false, missingFinalNewline: false });
      // The splitter copies what it keeps of a chunk: the read buffer can be reused.
      const splitter = new LineSplitter(limits.maxLineBytes, facts);
      for await (const chunk of source.chunks({ reuse: true })) {
        const batch = splitter.split(chunk);
        if (batch.length > 0) yield batch;
      }
      const last = splitter.end();
      if (last !== null) yield [last];
    },
    async *chunks(): AsyncGenerator<Buffer> {
      const source = whole !== null ? bytesSource(whole) : await openByteSource(path, limits);
      sources.push(source);
      facts.bytes = 0;
      for await (const chunk of source.chunks({ reuse: true })) {
        facts.bytes += chunk.length;
        yield chunk;
      }
    },
    async bytes(): Promise<Buffer> {
      // A document is read whole: both caps are the smaller of the file's and the document's.
      const plain: ByteCap = limits.maxDocumentBytes < limits.maxFileBytes ? { bytes: limits.maxDocumentBytes, setting: 'maxDocumentBytes' } : { bytes: limits.maxFileBytes, setting: 'maxFileBytes' };
      const inflated: ByteCap = limits.maxDocumentBytes < limits.maxInflatedBytes ? { bytes: limits.maxDocumentBytes, setting: 'maxDocumentBytes' } : { bytes: limits.maxInflatedBytes, setting: 'maxInflatedBytes' };
      const source = await openByteSource(path, limits, { plain, inflated });
      sources.push(source);
      const parts: Buffer[] = [];
      let total = 0;
      for await (const chunk of source.chunks()) {
        parts.push(chunk);
        total += chunk.length;
      }
      const all = Buffer.concat(parts, total);
      facts.bytes = all.length;
      return all;
    },
  };
  return { sample, input, facts, sources };
}

/** Plain files up to this size are read once: the sample's bytes are also the lines'. */
const READ_ONCE_BYTES = 64 * 1024;

/** A byte source over bytes already read. */
function bytesSource(bytes: Buffer): ByteSource {
  return {
    gzip: false,
    problem: null,
    async *chunks() {
      yield bytes;
    },
  };
}

async function readSample(path: string, display: string, limits: ReadLimits): Promise<{ sample: DetectSample; whole: Buffer | null }> {
  // Only the head is read, whatever the file's size: a file past limits.max-file-bytes is still detected, then reported.
  const source = await openByteSource(path, limits, { plain: null });
  const chunks = source.chunks()[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let total = 0;
  let complete = true;
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    parts.push(next.value);
    total += next.value.length;
    if (total >= HEAD_BYTES) {
      complete = false;
      break;
    }
  }
  const raw = Buffer.concat(parts, total);
  const whole = complete && !source.gzip && source.problem === null && raw.length <= READ_ONCE_BYTES && raw.length <= limits.maxFileBytes ? raw : null;
  let head = raw;
  if (head.length > HEAD_BYTES) head = head.subarray(0, HEAD_BYTES);
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) head = head.subarray(3);
  const text = head.toString('utf8');
  let jsonLines = sampleJsonLines(text, complete);
  // A long line fills the head (a first record over the window): the next records are sampled too.
  if (!complete && jsonLines.length < 2) jsonLines = await sampleLongLines(raw, chunks);
  else await chunks.return?.(undefined);
  let document: unknown;
  if (complete && source.problem === null) {
    try {
      document = JSON.parse(text);
    } catch {
      document = undefined;
    }
  }
  return { sample: { file: display, head, jsonLines, document }, whole };
}

/** A sampled line may be this long when the head holds too few lines (a line this long costs milliseconds to parse). */
const LONG_SAMPLE_LINE = 4 * 1024 * 1024;
/** How far past the head the sample looks for records after long lines (past the longest line read by default, 16 MiB). */
const LONG_SAMPLE_BYTES = 32 * 1024 * 1024;
/** How many lines (blank ones too) the sample looks at: a file of newlines costs no more than this. */
const LONG_SAMPLE_SCAN_LINES = 10_000;

/**
 * The first SAMPLE_LINES JSON lines of a file whose head is one long line (or a few):
 * the bytes read so far and then the following chunks, each line up to LONG_SAMPLE_LINE
 * parsed (a longer one passed over without being held), at most LONG_SAMPLE_BYTES read
 * past the head and LONG_SAMPLE_SCAN_LINES lines looked at. A record of 1.2 MB at the top of a native, Claude Code or Codex trace
 * no longer hides the file from detection.
 */
async function sampleLongLines(read: Buffer, chunks: AsyncIterator<Buffer>): Promise<unknown[]> {
  const out: unknown[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let lines = 0;
  const done = () => out.length >= SAMPLE_LINES || lines >= LONG_SAMPLE_SCAN_LINES;
  const take = (piece: Buffer, ends: boolean) => {
    if (!skipping && pendingBytes + piece.length <= LONG_SAMPLE_LINE) {
      pending.push(Buffer.from(piece));
      pendingBytes += piece.length;
    } else {
      skipping = true;
    }
    if (!ends) return;
    lines += 1;
    if (!skipping) {
      let line = Buffer.concat(pending, pendingBytes).toString('utf8');
      if (out.length === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      if (line.trim() !== '') {
        try {
          out.push(JSON.parse(line));
        } catch {
          // not a JSON line: detection looks at other evidence
        }
      }
    }
    pending = [];
    pendingBytes = 0;
    skipping = false;
  };
  const scan = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1 && !done(); nl = chunk.indexOf(0x0a, start)) {
      take(chunk.subarray(start, nl), true);
      start = nl + 1;
    }
    if (start < chunk.length && !done()) take(chunk.subarray(start), false);
  };
  scan(read);
  let past = 0;
  try {
    while (!done() && past < LONG_SAMPLE_BYTES) {
      const next = await chunks.next();
      if (next.done) {
        if (pendingBytes > 0 && !skipping) take(Buffer.alloc(0), true);
        break;
      }
      past += next.value.length;
      scan(next.value);
    }
  } finally {
    await chunks.return?.(undefined);
  }
  return out;
}

const CONTENT = /[^ \t\r\n]/g;

/**
 * The first SAMPLE_LINES lines of `text` that parse as JSON (when `complete` is false the
 * last, cut-off line is not one). Blank stretches are skipped by one native search each,
 * so a head of a million newlines costs no string per line.
 */
function sampleJsonLines(text: string, complete: boolean): unknown[] {
  const jsonLines: unknown[] = [];
  let from = 0;
  while (jsonLines.length < SAMPLE_LINES) {
    CONTENT.lastIndex = from;
    const found = CONTENT.exec(text);
    if (found === null) break;
    const start = text.lastIndexOf('\n', found.index) + 1;
    let end = text.indexOf('\n', found.index);
    if (end === -1) {
      if (!complete) break;
      end = text.length;
    }
    from = end + 1;
    if (end - start > 256 * 1024 || !mayBeJson(text, found.index, end)) continue;
    try {
      jsonLines.push(JSON.parse(text.slice(start, end)));
    } catch {
      // not a JSON line: detection looks at other evidence
    }
  }
  return jsonLines;
}

/**
 * False when the line from `first` (its first character that is not JSON whitespace) to
 * `end` cannot be one JSON value: its last such character does not close what the first
 * opens (`{…}`, `[…]`, `"…"`, a number, a literal). A pretty-printed document's lines
 * (`"id": "x",`, `{`, `},`) are passed over without a JSON.parse that throws.
 */
function mayBeJson(text: string, first: number, end: number): boolean {
  let last = end - 1;
  for (let c = text.charCodeAt(last); c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a; c = text.charCodeAt(last)) last -= 1;
  const a = text.charCodeAt(first);
  const z = text.charCodeAt(last);
  if (a === 0x7b) return z === 0x7d;
  if (a === 0x5b) return z === 0x5d;
  if (a === 0x22) return z === 0x22 && last > first;
  if (a === 0x2d || (a >= 0x30 && a <= 0x39)) return z >= 0x30 && z <= 0x39;
  if (a === 0x74 || a === 0x66) return z === 0x65;
  if (a === 0x6e) return z === 0x6c;
  return false;
}
