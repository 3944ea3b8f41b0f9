import type { SourceLocation } from '../model/records.js';

/** The file and run id the records of one run share, and the time its held times count from. */
export class Origin {
  /** The first whole-millisecond time held for the run: later times are kept as small differences from it. */
  base: number | null = null;

  constructor(
    readonly file: string,
    readonly runId: string | null,
  ) {}

  /**
   * A time as a record holds it: its difference from `base` when both are whole and
   * the difference is a small integer (kept in the object itself, where a large epoch
   * time takes a 16-byte box of its own); undefined when the time is kept as it is.
   */
  deltaOf(ts: number | null): number | undefined {
    if (ts === null || !Number.isInteger(ts) || Object.is(ts, -0)) return undefined;
    if (this.base === null) this.base = ts;
    const delta = ts - this.base;
    return delta >= -SMALL && delta <= SMALL ? delta : undefined;
  }

}

/** Differences up to this (2^30 ms, 12 days) stay small integers in V8. */
const SMALL = 2 ** 30 - 1;

/** One Origin per (file, run id) while a file is read; forgotten past `limit` run ids (records then get a new one). */
export class Origins {
  private readonly byRun = new Map<string | null, Origin>();
  private last: Origin | null = null;

  constructor(private readonly limit = 1024) {}

  of(loc: SourceLocation, runId: string | null): Origin {
    const last = this.last;
    if (last !== null && last.runId === runId && last.file === loc.file) return last;
    let origin = this.byRun.get(runId);
    if (origin === undefined || origin.file !== loc.file) {
      if (this.byRun.size >= this.limit) this.byRun.clear();
      origin = new Origin(loc.file, runId);
      this.byRun.set(runId, origin);
    }
    this.last = origin;
    return origin;
  }
}

