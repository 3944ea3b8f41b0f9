import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { LineSplitter } from '../io/line-splitter.js';
import type { Finding, Severity } from '../model/finding.js';
import { compareFindings } from './findings.js';

/** Findings kept in memory before the store writes a sorted chunk to disk. */
export const DEFAULT_SPILL_THRESHOLD = 5_000;
/** Beyond this many chunk files, they are merged into one (bounds the files open during a merge). */
export const MAX_CHUNK_FILES = 128;
/** Bytes read from a chunk file at a time, and written to one at a time. */
const READ_BYTES = 16 * 1024;
const WRITE_CHARS = 1024 * 1024;

export interface FindingStoreOptions {
  /** Findings held in memory before sorted chunks are spilled to disk (≥ 1; default 5,000). */
  readonly threshold?: number;
  /** The folder in which the store makes its private temporary folder (default: os.tmpdir()). */
  readonly tmpRoot?: string;
}

/**
 * What a store hands to another (a worker's findings posted to the main thread):
 * its sorted sources in order, the folders whose ownership passes with them, and
 * the counters. Plain data, so it survives postMessage.
 */
export interface FindingHandoff {
  readonly dirs: readonly string[];
  readonly sources: ReadonlyArray<{ readonly path: string; readonly count: number } | { readonly findings: readonly Finding[] }>;
  readonly counts: Readonly<Record<Severity, number>>;
  readonly ruleIds: readonly string[];
}

type Source = { readonly kind: 'memory'; readonly findings: Finding[] } | { readonly kind: 'file'; readonly path: string; readonly count: number };

/**
 * The findings of an audit, in constant memory. Up to `threshold` findings stay in
 * memory; beyond that, sorted chunks are written as JSON lines to a private folder
 * (mkdtemp: mode 0700) and iteration is a k-way merge of the chunks and what is
 * still in memory, in report order (`compareFindings`). Ties keep the order the
 * findings were added in, so the order (and the bytes) are those of a stable sort
 * of everything added, whether or not anything was spilled.
 *
 * `close()` removes the folders the store owns; call it in a `finally`. Folders
 * still open when the process exits (or gets SIGINT, SIGTERM or SIGHUP) are
 * removed then too.
 */
export class FindingStore implements Iterable<Finding> {
  readonly #threshold: number;
  readonly #tmpRoot: string;
  readonly #counts: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  readonly #ruleIds = new Set<string>();
  /** Sorted sequences, in the order their findings were added. */
  #sources: Source[] = [];
  /** Findings added since the last source was sealed: unsorted until iterated or spilled. */
  #buffer: Finding[] = [];
  /** Findings held by the memory sources. */
  #inMemory = 0;
  #size = 0;
  #dir: string | null = null;
  #owned: string[] = [];
  #chunkNumber = 0;
  #iterating = 0;
  #closed = false;

  constructor(options: FindingStoreOptions = {}) {
    const threshold = options.threshold ?? DEFAULT_SPILL_THRESHOLD;
    if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError(`finding store threshold must be a whole number ≥ 1, not ${threshold}`);
    this.#threshold = threshold;
    this.#tmpRoot = options.tmpRoot ?? tmpdir();
  }

  /** Number of findings added (adopted ones included). */
  get size(): number {
    return this.#size;
  }

  /** Findings per severity, kept as they are added. */
  get counts(): Readonly<Record<Severity, number>> {
    return this.#counts;
  }

  /** The rule ids that produced at least one finding. */
  get ruleIds(): ReadonlySet<string> {
    return this.#ruleIds;
  }

  /** True when some findings live in chunk files. */
  get spilled(): boolean {
    return this.#sources.some((source) => source.kind === 'file');
  }

  /** The folders the store removes when it is closed (for tests and diagnostics). */
  get folders(): readonly string[] {
    return [...this.#owned];
  }

  add(finding: Finding): void {
    this.#assertWritable();
    this.#buffer.push(finding);
    this.#count(finding.severity, finding.ruleId, 1);
    if (this.#buffer.length + this.#inMemory > this.#threshold) this.#spill();
  }

  /**
   * Takes over other stores' findings (handoffs, in order), after everything added
   * so far. The folders named in the handoffs are owned (and removed) by this store
   * from the first line on, even when adopting fails half-way.
   */
  adopt(handoffs: readonly FindingHandoff[]): void {
    this.#assertWritable();
    for (const handoff of handoffs) for (const dir of handoff.dirs) this.#own(dir);
    for (const handoff of handoffs) {
      this.#seal();
      for (const source of handoff.sources) {
        if ('path' in source) {
          this.#sources.push({ kind: 'file', path: source.path, count: source.count });
        } else if (source.findings.length > 0) {
          this.#sources.push({ kind: 'memory', findings: source.findings as Finding[] });
          this.#inMemory += source.findings.length;
        }
      }
      for (const severity of ['error', 'warning', 'note'] as const) this.#counts[severity] += handoff.counts[severity];
      for (const ruleId of handoff.ruleIds) this.#ruleIds.add(ruleId);
      this.#size += handoff.sources.reduce((n, source) => n + ('path' in source ? source.count : source.findings.length), 0);
    }
    if (this.#inMemory > this.#threshold || this.#fileCount() > MAX_CHUNK_FILES) this.#spill();
  }

  /**
   * Passes everything to another store (`adopt`), possibly in another thread: the
   * chunk files and this store's folder now belong to the receiver. The store is
   * closed afterwards (closing it again removes nothing).
   */
  handoff(): FindingHandoff {
    this.#assertWritable();
    this.#seal();
    const sources = this.#sources.map((source) => (source.kind === 'file' ? { path: source.path, count: source.count } : { findings: source.findings }));
    const handoff: FindingHandoff = { dirs: [...this.#owned], sources, counts: { ...this.#counts }, ruleIds: [...this.#ruleIds] };
    for (const dir of this.#owned) LIVE_FOLDERS.delete(dir);
    this.#owned = [];
    this.#dir = null;
    this.#sources = [];
    this.#closed = true;
    return handoff;
  }

  /** Every finding in report order; chunk files are read again on each iteration. */
  *[Symbol.iterator](): Generator<Finding, void, undefined> {
    this.#assertOpen();
    this.#buffer.sort(compareFindings);
    const sources = [...this.#sources, { kind: 'memory' as const, findings: this.#buffer }].filter((source) =>
      source.kind === 'file' ? source.count > 0 : source.findings.length > 0,
    );
    this.#iterating += 1;
    try {
      yield* mergeSorted(sources.map(openSource));
    } finally {
      this.#iterating -= 1;
    }
  }

  /** Every finding in report order, in one array (for the consumers that need one). */
  toArray(): Finding[] {
    return [...this];
  }

  /** Removes the store's temporary folders; the store cannot be used afterwards. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#sources = [];
    this.#buffer = [];
    const owned = this.#owned;
    this.#owned = [];
    this.#dir = null;
    let failure: unknown;
    for (const dir of owned) {
      try {
        rmSync(dir, { recursive: true, force: true });
        LIVE_FOLDERS.delete(dir);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  #count(severity: Severity, ruleId: string, n: number): void {
    this.#counts[severity] += n;
    this.#ruleIds.add(ruleId);
    this.#size += n;
  }

  /** Turns the buffer into a sorted memory source, so what is adopted next stays after it. */
  #seal(): void {
    if (this.#buffer.length === 0) return;
    this.#buffer.sort(compareFindings);
    this.#sources.push({ kind: 'memory', findings: this.#buffer });
    this.#inMemory += this.#buffer.length;
    this.#buffer = [];
  }

  /** Writes every memory source (in place) and the buffer to chunk files; merges the files when there are too many. */
  #spill(): void {
    this.#seal();
    this.#sources = this.#sources.map((source) => (source.kind === 'memory' ? this.#writeChunk(source.findings) : source));
    this.#inMemory = 0;
    if (this.#fileCount() > MAX_CHUNK_FILES) {
      const old = this.#sources;
      const merged = this.#writeChunk(mergeSorted(old.map(openSource)));
      this.#sources = [merged];
      for (const source of old) if (source.kind === 'file') rmSync(source.path, { force: true });
    }
  }

  #writeChunk(findings: Iterable<Finding>): Source {
    const dir = this.#ensureDir();
    this.#chunkNumber += 1;
    const path = join(dir, `chunk-${String(this.#chunkNumber).padStart(6, '0')}.jsonl`);
    const fd = openSync(path, 'wx', 0o600);
    let count = 0;
    try {
      let text = '';
      for (const finding of findings) {
        text += `${JSON.stringify(finding)}\n`;
        count += 1;
        if (text.length >= WRITE_CHARS) {
          writeFully(fd, text);
          text = '';
        }
      }
      if (text.length > 0) writeFully(fd, text);
    } finally {
      closeSync(fd);
    }
    return { kind: 'file', path, count };
  }

  #ensureDir(): string {
    if (this.#dir === null) {
      // mkdtemp makes the folder with mode 0700: only this user can list or read the chunks.
      this.#dir = mkdtempSync(join(this.#tmpRoot, 'agent-trace-audit-findings-'));
      this.#own(this.#dir);
    }
    return this.#dir;
  }

  #own(dir: string): void {
    if (!this.#owned.includes(dir)) this.#owned.push(dir);
    registerLiveFolder(dir);
  }

  #fileCount(): number {
    return this.#sources.reduce((n, source) => n + (source.kind === 'file' ? 1 : 0), 0);
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the finding store is closed');
  }

  #assertWritable(): void {
    this.#assertOpen();
    if (this.#iterating > 0) throw new Error('the finding store cannot change while it is being read');
  }
}

/**
 * A private temporary folder (mode 0700) that is removed when the process exits,
 * unless it was removed before; hand it to a store with an adopt of `{ dirs: [it] }`.
 */
export function makeSpillFolder(tmpRoot: string = tmpdir()): string {
  const dir = mkdtempSync(join(tmpRoot, 'agent-trace-audit-spill-'));
  registerLiveFolder(dir);
  return dir;
}

/** A handoff that carries only the ownership of folders (no findings). */
export function folderHandoff(dirs: readonly string[]): FindingHandoff {
  return { dirs, sources: [], counts: { error: 0, warning: 0, note: 0 }, ruleIds: [] };
}

/** Removes a folder made by makeSpillFolder (or handed over) that no store took. */
export function removeSpillFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  LIVE_FOLDERS.delete(dir);
}

/** Folders of this thread still to remove: a last chance at exit (process.exit, an uncaught error, a signal). */
const LIVE_FOLDERS = new Set<string>();
let exitHooked = false;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function registerLiveFolder(dir: string): void {
  LIVE_FOLDERS.add(dir);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', removeLiveFolders);
  // Signals reach the main thread only (its pool folder holds the workers' folders). The
  // folders are removed, then the signal is raised again without this handler: the
  // process ends as it would have (unless something else listens for it).
  if (!isMainThread) return;
  const onSignal = (signal: NodeJS.Signals) => {
    removeLiveFolders();
    for (const name of SIGNALS) process.removeListener(name, onSignal);
    process.kill(process.pid, signal);
  };
  for (const name of SIGNALS) process.once(name, onSignal);
}

function removeLiveFolders(): void {
  for (const live of LIVE_FOLDERS) {
    try {
      rmSync(live, { recursive: true, force: true });
    } catch {
      // Exiting anyway: nothing more to do.
    }
  }
  LIVE_FOLDERS.clear();
}

function openSource(source: Source): Iterator<Finding> {
  return source.kind === 'file' ? readChunk(source.path) : source.findings.values();
}

/** The findings of one chunk file, one JSON line at a time (split by the reader of trace files). */
function* readChunk(path: string): Generator<Finding, void, undefined> {
  const fd = openSync(path, 'r');
  try {
    const facts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
    // No line limit: the lines are our own findings. The block is reused by the next
    // read; the splitter copies the unfinished line it keeps.
    const lines = new LineSplitter(Number.MAX_SAFE_INTEGER, facts);
    const block = Buffer.allocUnsafe(READ_BYTES);
    for (let n = readSync(fd, block, 0, block.length, null); n > 0; n = readSync(fd, block, 0, block.length, null)) {
      for (const event of lines.split(block.subarray(0, n))) {
        if (event.type === 'bad-line') throw new Error(`finding chunk ${path} has a bad line ${event.line}`);
        yield JSON.parse(event.text) as Finding;
      }
    }
    if (lines.end() !== null) throw new Error(`finding chunk ${path} ends in the middle of a line`);
  } finally {
    closeSync(fd);
  }
}

/** K-way merge of sorted sequences; on ties the earlier sequence comes first (a stable merge). */
function* mergeSorted(iterators: Array<Iterator<Finding>>): Generator<Finding, void, undefined> {
  try {
    if (iterators.length === 1) {
      for (let next = iterators[0]!.next(); !next.done; next = iterators[0]!.next()) yield next.value;
      return;
    }
    const heap: Array<{ value: Finding; source: number }> = [];
    const before = (a: { value: Finding; source: number }, b: { value: Finding; source: number }) => {
      const order = compareFindings(a.value, b.value);
      return order < 0 || (order === 0 && a.source < b.source);
    };
    const push = (entry: { value: Finding; source: number }) => {
      let i = heap.length;
      heap.push(entry);
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    };
    const siftDown = () => {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && before(heap[left]!, heap[least]!)) least = left;
        if (right < heap.length && before(heap[right]!, heap[least]!)) least = right;
        if (least === i) return;
        [heap[i], heap[least]] = [heap[least]!, heap[i]!];
        i = least;
      }
    };
    iterators.forEach((iterator, source) => {
      const next = iterator.next();
      if (!next.done) push({ value: next.value, source });
    });
    while (heap.length > 0) {
      const top = heap[0]!;
      yield top.value;
      const next = iterators[top.source]!.next();
      if (next.done) {
        const last = heap.pop()!;
        if (heap.length === 0) break;
        heap[0] = last;
      } else {
        heap[0] = { value: next.value, source: top.source };
      }
      siftDown();
    }
  } finally {
    for (const iterator of iterators) iterator.return?.();
  }
}

function writeFully(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
