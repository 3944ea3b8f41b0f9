import type { RecordSink } from '../types.js';

const SWEEP_EVERY = 1024;

/**
 * A streaming parser's state per open run (session, connection, trace), released
 * when the run ends or goes idle: a run with no record of its own for `idleRecords`
 * records of the file (limits.run-idle-records, the window the engine's RunGrouper
 * uses) has its state dropped and is closed in the sink (`endRun`), so a run that
 * resumes after it is reported as split by the engine, never silently misread.
 * Memory is then bounded by the runs in flight, not by the file. `idleRecords` 0
 * keeps every run open until the file ends.
 */
export class SessionStates<T> {
  // Keyed like the engine's RunGrouper: the run id, '' for records without one.
  private readonly open = new Map<string, { state: T; last: number }>();
  private read = 0;

  constructor(
    private readonly idleRecords: number,
    private readonly make: (runId: string | null) => T,
    private readonly sink: RecordSink,
  ) {}

  /** Counts one record of the file read (call once per line or element, before `get`). */
  tick(): void {
    this.read += 1;
    if (this.idleRecords > 0 && this.read % SWEEP_EVERY === 0) this.sweep();
  }

  /** The state of `runId`'s run (made when the run opens), marked as used now. */
  get(runId: string | null): T {
    const key = runId ?? '';
    let entry = this.open.get(key);
    if (entry === undefined) {
      entry = { state: this.make(runId), last: this.read };
      this.open.set(key, entry);
    }
    entry.last = this.read;
    return entry.state;
  }

  /** The run ended (its file said so): its state is dropped and the run closed. */
  end(runId: string | null): void {
    const key = runId ?? '';
    if (!this.open.has(key)) return;
    this.open.delete(key);
    this.sink.endRun?.(runId);
  }

  /** Runs whose state is held now (for tests and the bench). */
  get size(): number {
    return this.open.size;
  }

  private sweep(): void {
    for (const [key, entry] of this.open) {
      if (this.read - entry.last >= this.idleRecords) this.end(key === '' ? null : key);
    }
  }
}
