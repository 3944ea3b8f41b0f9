import type { SourceLocation } from '../../model/records.js';

/**
 * What the held records of one run share (held-records.ts, issue 22): its file, run
 * id and first time, and the strings its records would otherwise each hold a copy
 * of: a result holds the very call id string its call holds (a parser makes a new
 * string of the same text for each), found among the run's calls not yet answered,
 * and the records naming one tool hold one string of its name.
 */

/** The file and run id the records of one run share, and the time its held times count from. */
export class Origin {
  /** The first whole-millisecond time held for the run: later times are kept as small differences from it. */
  base: number | null = null;
  /** The call ids of the run's calls not yet answered, each the string its call holds; at most UNANSWERED (then forgotten). */
  private unanswered: Map<string, string> | null = null;
  /** The run's tool names, one string each (a parser makes a string per record of a name longer than a few characters); at most NAMES. */
  private names: Map<string, string> | null = null;

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

  /** A call's id as its held record keeps it, remembered until a result answers it. */
  called(callId: string | null): string | null {
    if (callId === null) return null;
    const ids = (this.unanswered ??= new Map());
    if (ids.size >= UNANSWERED) ids.clear();
    ids.set(callId, callId);
    return callId;
  }

  /** A result's call id as its held record keeps it: the string its call keeps when the call is not yet answered. */
  answered(callId: string | null): string | null {
    const ids = this.unanswered;
    if (callId === null || ids === null) return callId;
    const held = ids.get(callId);
    if (held === undefined) return callId;
    ids.delete(callId);
    return held;
  }

  /** A tool name as the run's held records keep it: the one string of its text in the run. */
  named<T extends string | null>(tool: T): T {
    if (tool === null) return tool;
    const names = (this.names ??= new Map());
    const held = names.get(tool);
    if (held !== undefined) return held as T;
    if (names.size >= NAMES) names.clear();
    names.set(tool, tool);
    return tool;
  }
}

/** Calls a run leaves unanswered at once, at most (its never-answered ones are forgotten past this). */
const UNANSWERED = 256;

/** Tool names a run keeps one string of, at most (a run naming more starts again). */
const NAMES = 256;

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

