import type { CatalogRecord } from '../model/records.js';
import { RunBuilder, type HeldRecord, type Run } from '../model/run.js';

const SWEEP_EVERY = 1024;

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

/**
 * Groups one file's records into runs and hands each complete run on. A run is
 * complete when its file ends, when the parser says so, or when it has had no
 * record for `idleLimit` records (or lines) (so memory stays bounded by the runs in
 * flight, not the file). Runs that interleave within that window are never split; a
 * run that resumes after it is reported by `add`, so the split is never silent.
 */
export class RunGrouper {
  private readonly open = new Map<string, { builder: RunBuilder; last: number; firstLine: number }>();
  private readonly closed = new Map<string, number>();
  private swept = 0;
  records = 0;
  completed = 0;

  constructor(
    private readonly file: string,
    private readonly format: string,
    private readonly idleLimit: number,
    private readonly onRun: (closed: ClosedRun) => void,
    private readonly clock: IdleClock = 'records',
  ) {}

  /** Adds a record; returns how long its run had been idle when it resumes after being closed. */
  add(record: HeldRecord): { idle: number } | null {
    this.records += 1;
    const lines = this.clock === 'lines';
    if (lines && this.idleLimit > 0) this.sweepBefore(record.loc.line);
    const now = lines ? record.loc.line : this.records;
    const key = record.runId ?? '';
    let entry = this.open.get(key);
    let resumed: { idle: number } | null = null;
    if (!entry) {
      const closedAt = this.closed.get(key);
      if (closedAt !== undefined) {
        resumed = { idle: now - closedAt };
        this.closed.delete(key);
      }
      entry = { builder: new RunBuilder(this.file, record.runId, this.format), last: now, firstLine: record.loc.line };
      this.open.set(key, entry);
    }
    entry.last = now;
    entry.builder.add(record);
    if (!lines && this.idleLimit > 0 && this.records % SWEEP_EVERY === 0) this.sweep(this.records, Infinity);
    return resumed;
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
    if (this.clock === 'lines' && this.idleLimit > 0) this.sweepBefore(lines + 1);
    for (const key of [...this.open.keys()]) this.closeKey(key, Infinity);
  }

  private closeKey(key: string, closedAt: number): void {
    const entry = this.open.get(key);
    if (!entry) return;
    this.open.delete(key);
    this.closed.set(key, entry.last);
    this.completed += 1;
    this.onRun({ run: entry.builder.finish(), closedAt, firstLine: entry.firstLine });
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
      if (now - entry.last < this.idleLimit) continue;
      this.closeKey(key, closedAt === 0 ? Math.ceil((entry.last + this.idleLimit) / SWEEP_EVERY) * SWEEP_EVERY : closedAt);
    }
  }
}
