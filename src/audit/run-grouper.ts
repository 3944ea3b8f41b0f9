import type { TraceRecord } from '../model/records.js';
import { RunBuilder, type Run } from '../model/run.js';

const SWEEP_EVERY = 1024;

/**
 * Groups one file's records into runs and hands each complete run on. A run is
 * complete when its file ends, when the parser says so, or when it has had no
 * record for `idleLimit` records (so memory stays bounded by the runs in flight,
 * not the file). Runs that interleave within that window are never split; a run
 * that resumes after it is reported by `add`, so the split is never silent.
 */
export class RunGrouper {
  private readonly open = new Map<string, { builder: RunBuilder; last: number }>();
  private readonly closed = new Map<string, number>();
  records = 0;
  completed = 0;

  constructor(
    private readonly file: string,
    private readonly format: string,
    private readonly idleLimit: number,
    private readonly onRun: (run: Run) => void,
  ) {}

  /** Adds a record; returns how long its run had been idle when it resumes after being closed. */
  add(record: TraceRecord): { idle: number } | null {
    this.records += 1;
    const key = record.runId ?? '';
    let entry = this.open.get(key);
    let resumed: { idle: number } | null = null;
    if (!entry) {
      const closedAt = this.closed.get(key);
      if (closedAt !== undefined) {
        resumed = { idle: this.records - closedAt };
        this.closed.delete(key);
      }
      entry = { builder: new RunBuilder(this.file, record.runId, this.format), last: this.records };
      this.open.set(key, entry);
    }
    entry.last = this.records;
    entry.builder.add(record);
    if (this.idleLimit > 0 && this.records % SWEEP_EVERY === 0) this.sweep();
    return resumed;
  }

  close(runId: string | null): void {
    const key = runId ?? '';
    const entry = this.open.get(key);
    if (!entry) return;
    this.open.delete(key);
    this.closed.set(key, entry.last);
    this.completed += 1;
    this.onRun(entry.builder.finish());
  }

  closeAll(): void {
    for (const key of [...this.open.keys()]) this.close(key === '' ? null : key);
  }

  private sweep(): void {
    for (const [key, entry] of this.open) {
      if (this.records - entry.last >= this.idleLimit) this.close(key === '' ? null : key);
    }
  }
}
