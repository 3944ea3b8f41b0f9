import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding, Severity } from '../../model/finding.js';
import { openSource, writeChunk, type Source } from './finding-chunks.js';
import { mergeSorted } from './finding-merge.js';
import { compareFindings } from './findings.js';
import { forgetLiveFolder, registerLiveFolder } from './spill-folders.js';

/** Findings kept in memory before the store writes a sorted chunk to disk. */
export const DEFAULT_SPILL_THRESHOLD = 5_000;
/** Beyond this many chunk files, they are merged into one (bounds the files open during a merge). */
export const MAX_CHUNK_FILES = 128;

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

/**
 * The findings of an audit, in constant memory. Up to `threshold` findings stay in
 * memory; beyond that, sorted chunks are written as JSON lines to a private folder
 * (mkdtemp: mode 0700) and iteration is a k-way merge of the chunks and what is
 * still in memory, in report order (`compareFindings`). Ties keep the order the
 * findings were added in, so the order (and the bytes) are those of a stable sort
 * of everything added, whether or not anything was spilled. `close()` removes the
 * folders the store owns (call it in a `finally`); spill-folders.ts removes at exit
 * the ones still open. Chunk files: finding-chunks.ts; the merge: finding-merge.ts.
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
    for (const dir of this.#owned) forgetLiveFolder(dir);
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
        forgetLiveFolder(dir);
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
    return { kind: 'file', path, count: writeChunk(path, findings) };
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
