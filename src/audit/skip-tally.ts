import { looksLikeToolRecord } from '../ingest/tool-shape.js';
import type { FileSkip } from '../model/audit.js';
import { sanitizeText } from '../sanitize/text.js';

/** Distinct reasons kept per file (a hostile file could make one per line); the rest are counted together. */
export const MAX_SKIP_REASONS = 32;
const OTHER = 'other reasons (more than 32 distinct)';

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

  /** Reasons sorted by name (deterministic), each with its count and first line. */
  summary(): FileSkip[] {
    return [...this.byReason].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([reason, { count, firstLine }]) => ({ reason, count, firstLine }));
  }
}
