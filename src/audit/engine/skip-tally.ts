import { looksLikeToolRecord } from '../../ingest/facts/tool-shape.js';
import type { FileSkip } from '../../model/audit.js';
import { sanitizeText } from '../../sanitize/text.js';

/** Distinct reasons kept per file (a hostile file could make one per line); the rest are counted together. */
export const MAX_SKIP_REASONS = 32;
const OTHER = 'other reasons (more than 32 distinct)';

export interface SkipSnapshot {
  readonly reasons: ReadonlyArray<[string, number, number]>;
  readonly toolLike: number;
  readonly firstToolLikeLine: number;
  readonly full: boolean;
}

/** Counts what a parser read and left out of one file, per reason (the report's files[].skipped). */
export class SkipTally {
  private readonly byReason = new Map<string, { count: number; firstLine: number }>();
  /** Skipped records that look like tool calls or results (partial-read). */
  toolLike = 0;
  firstToolLikeLine = 0;

  add(rawReason: string, line: number, value?: unknown, toolLike = false): void {
    // Reasons may quote the trace (a record type): sanitized and capped like every printed string.
    let reason = sanitizeText(rawReason, { maxChars: 120 });
    if (!this.byReason.has(reason) && this.byReason.size >= MAX_SKIP_REASONS) reason = OTHER;
    const entry = this.byReason.get(reason);
    if (entry) {
      entry.count += 1;
      entry.firstLine = Math.min(entry.firstLine, line);
    } else this.byReason.set(reason, { count: 1, firstLine: line });
    if (toolLike || (value !== undefined && looksLikeToolRecord(value))) {
      if (this.toolLike === 0 || line < this.firstToolLikeLine) this.firstToolLikeLine = line;
      this.toolLike += 1;
    }
  }

  /** The counts as plain data (a routed thread's share of a file). `full`: reasons past the limit were merged. */
  snapshot(): SkipSnapshot {
    const reasons = [...this.byReason].map(([reason, { count, firstLine }]): [string, number, number] => [reason, count, firstLine]);
    return { reasons, toolLike: this.toolLike, firstToolLikeLine: this.firstToolLikeLine, full: this.byReason.size >= MAX_SKIP_REASONS };
  }

  /** Adds another share's counts of the same file (below the reason limit the result does not depend on order). */
  absorb(other: SkipSnapshot): void {
    for (const [reason, count, firstLine] of other.reasons) {
      const entry = this.byReason.get(reason);
      if (entry) {
        entry.count += count;
        entry.firstLine = Math.min(entry.firstLine, firstLine);
      } else this.byReason.set(reason, { count, firstLine });
    }
    if (other.toolLike > 0 && (this.toolLike === 0 || other.firstToolLikeLine < this.firstToolLikeLine)) this.firstToolLikeLine = other.firstToolLikeLine;
    this.toolLike += other.toolLike;
  }

  /** More distinct reasons than a file keeps (after absorbing shares: the order of the shares would matter). */
  get full(): boolean {
    return this.byReason.size >= MAX_SKIP_REASONS;
  }

  /** Reasons sorted by name (deterministic), each with its count and first line. */
  summary(): FileSkip[] {
    return [...this.byReason].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([reason, { count, firstLine }]) => ({ reason, count, firstLine }));
  }
}
