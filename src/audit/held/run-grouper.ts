import type { CatalogRecord } from '../../model/records.js';
import { RunBuilder, type HeldRecord, type Run } from '../../model/run.js';
import { cutRun } from './run-parts.js';

const SWEEP_EVERY = 1024;

/** A part's calls still awaiting a result are carried on when they are among its last 1/CARRY_WINDOW_SHARE of records. */
const CARRY_WINDOW_SHARE = 10;

/**
 * How the grouper measures idleness. `records`: records of the file added since
 * the run's last one (the sweep every 1024 records). `lines`: line numbers, with
 * the sweep at every multiple of 1024 lines, so whether a run is split depends on
 * the line numbers of its own records alone; that is what lets one file's runs be
 * grouped on several threads, each seeing only its runs' records (the router).
 */
export type IdleClock = 'records' | 'lines';

/** A complete run and where it sorts among its file's runs (`lines` clock: entryOrder in file-audit.ts). */
export interface ClosedRun {
  readonly run: Run;
  /** The sweep boundary that closed it, or Infinity when its file ended (or the parser ended it). */
  readonly closedAt: number;
  readonly firstLine: number;
}

/** How long a run may stay open: idle records (or lines) and held records; 0: no limit. */
export interface RunLimits {
  readonly idle: number;
  readonly maxRecords: number;
}

interface OpenRun {
  builder: RunBuilder;
  /** The clock at its last record (records or lines), the line of its first and last record, and the parts handed on. */
  last: number;
  firstLine: number;
  lastLine: number;
  parts: number;
}

/** What `add` tells of a record's run: it resumed after being closed as idle, or its last part was cut at the record limit. */
export type RunEvent = { readonly idle: number } | { readonly cut: number };

/**
 * Groups one file's records into runs and hands each complete run on. A run is
 * complete when its file ends, when the parser says so, or when it has had no
 * record for `limits.idle` records (or lines) (so memory stays bounded by the runs in
 * flight, not the file). Runs that interleave within that window are never split; a
 * run that resumes after it is reported by `add`, so the split is never silent. A run
 * that reaches `limits.maxRecords` records is handed on as a part (run-parts.ts) and
 * goes on in a new one; `add` reports that too. Both depend on the run's own records
 * alone (its count, and its lines on the `lines` clock).
 */
export class RunGrouper {
  private readonly open = new Map<string, OpenRun>();
  private readonly closed = new Map<string, number>();
  private swept = 0;
  records = 0;
  completed = 0;

  constructor(
    private readonly file: string,
    private readonly format: string,
    private readonly limits: RunLimits,
    private readonly onRun: (closed: ClosedRun) => void,
    private readonly clock: IdleClock = 'records',
  ) {}

  /** Adds a record; returns how long its run had been idle when it resumes after being closed, or the part its run's last one was. */
  add(record: HeldRecord): RunEvent | null {
    this.records += 1;
    const lines = this.clock === 'lines';
    const idleLimit = this.limits.idle;
    if (lines && idleLimit > 0) this.sweepBefore(record.loc.line);
    const now = lines ? record.loc.line : this.records;
    const key = record.runId ?? '';
    let entry = this.open.get(key);
    let resumed: RunEvent | null = null;
    if (!entry) {
      const closedAt = this.closed.get(key);
      if (closedAt !== undefined) {
        resumed = { idle: now - closedAt };
        this.closed.delete(key);
      }
      entry = { builder: new RunBuilder(this.file, record.runId, this.format), last: now, firstLine: record.loc.line, lastLine: record.loc.line, parts: 0 };
      this.open.set(key, entry);
    }
    // A full run is cut before this record, so every record of a part has arrived (record-stage.ts) when it is audited.
    const max = this.limits.maxRecords;
    if (max > 0 && entry.builder.size >= max) resumed = this.cut(entry, entry.lastLine);
    entry.last = now;
    entry.lastLine = record.loc.line;
    if (entry.builder.size === 0) entry.firstLine = record.loc.line;
    entry.builder.add(record);
    if (!lines && idleLimit > 0 && this.records % SWEEP_EVERY === 0) this.sweep(this.records, Infinity);
    return resumed;
  }

  /**
   * Hands the run's records so far on as a part (closed at the line of its last record)
   * and opens its next part with the calls still awaiting a result among its last
   * tenth (run-parts.ts).
   */
  private cut(entry: OpenRun, line: number): RunEvent {
    entry.parts += 1;
    const { part, carried, catalog } = cutRun(entry.builder.finish(entry.parts), Math.ceil(this.limits.maxRecords / CARRY_WINDOW_SHARE));
    this.completed += 1;
    this.onRun({ run: part, closedAt: line, firstLine: entry.firstLine });
    const next = new RunBuilder(this.file, part.runId, this.format, catalog);
    for (const call of carried) next.add(call);
    entry.builder = next;
    if (carried.length > 0) entry.firstLine = carried[0]!.loc.line;
    return { cut: entry.parts };
  }

  /** The catalog so far of the open run with this id (null when it has none, or is not open). */
  catalogOf(runId: string | null): CatalogRecord | null {
    return this.open.get(runId ?? '')?.builder.catalog ?? null;
  }

  close(runId: string | null): void {
    this.closeKey(runId ?? '', Infinity);
  }

  /**
   * Closes every open run. `lines`: the file's line count, so the sweeps a line
   * after the last record would have made are made first (the `lines` clock).
   */
  closeAll(lines = 0): void {
    if (this.clock === 'lines' && this.limits.idle > 0) this.sweepBefore(lines + 1);
    for (const key of [...this.open.keys()]) this.closeKey(key, Infinity);
  }

  private closeKey(key: string, closedAt: number): void {
    const entry = this.open.get(key);
    if (!entry) return;
    this.open.delete(key);
    this.closed.set(key, entry.last);
    this.completed += 1;
    this.onRun({ run: entry.builder.finish(entry.parts === 0 ? 0 : entry.parts + 1), closedAt, firstLine: entry.firstLine });
  }

  /** `lines` clock: the sweep of the last boundary before `line`, once per boundary. */
  private sweepBefore(line: number): void {
    const boundary = Math.floor((line - 1) / SWEEP_EVERY) * SWEEP_EVERY;
    if (boundary <= this.swept) return;
    this.swept = boundary;
    this.sweep(boundary, 0);
  }

  /** Closes the runs idle for `idleLimit` at `now`; `closedAt` 0: the first boundary at which each was. */
  private sweep(now: number, closedAt: number): void {
    for (const [key, entry] of this.open) {
      if (now - entry.last < this.limits.idle) continue;
      this.closeKey(key, closedAt === 0 ? Math.ceil((entry.last + this.limits.idle) / SWEEP_EVERY) * SWEEP_EVERY : closedAt);
    }
  }
}
