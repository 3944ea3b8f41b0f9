import type { Report } from '../schema.js';
import { groupDigits } from '../digits.js';

/**
 * Why a trace file the input matched was not read (no record came out of it):
 * - `unknown-format`: no format claimed it (its `unknown-format` finding says what it looks like);
 * - `unreadable`: a format claimed it and no record could be read: a malformed-record (a record that does not parse, a file past limits.max-file-bytes) or a truncated-tail;
 * - `skipped`: a format claimed it and left every record it found out (`files[].skipped`);
 * - `no-records`: a format claimed it and nothing came out, nothing skipped either.
 */
export type UnreadReason = 'unknown-format' | 'unreadable' | 'skipped' | 'no-records';

/** A trace file no record came out of: its path (as the report names it), why, and the format that claimed it. */
export interface UnreadFile {
  readonly path: string;
  readonly reason: UnreadReason;
  /** The format that claimed the file; absent for `unknown-format`. */
  readonly format?: string;
  /** Places of tool-shaped content the file holds (files[].toolShaped); absent when none. */
  readonly toolShaped?: number;
}

/** A file the input matched that is not trace-like at all (a README, an image): listed, never counted. */
export interface NotTraceFile {
  readonly path: string;
  /** What it is (src/ingest/trace-like.ts): `a PNG image`, `text that is not JSON or YAML`. */
  readonly reason: string;
}

export interface Coverage {
  /** Trace files the input matched (not-trace-like files left out). */
  readonly files: number;
  /** Of them, the files records came out of (files[].records > 0). */
  readonly read: number;
  /** The files no record came out of, in report order. */
  readonly unread: readonly UnreadFile[];
  /** Read files where tool-shaped content was seen and not read (files[].toolShaped): read in part. */
  readonly partlyRead: number;
  /** Files the input matched that are not trace-like, in report order: not in `files`. */
  readonly notTraces: readonly NotTraceFile[];
  readonly records: number;
  readonly toolCalls: number;
  readonly toolResults: number;
  /** Records the parsers read and left out, all reasons. */
  readonly skipped: number;
}

const COULD_NOT_PARSE = new Set(['malformed-record', 'truncated-tail']);

/**
 * What the report says was read, file by file. A trace file counts as read when
 * records came out of it (`records` > 0, whatever they held: a file of records
 * with no tool call is read, and says so in an ingest-note). A file with
 * `notTrace` is listed apart. Every count comes from `files[]`, so a merged
 * report's coverage is its shards' together.
 */
export function coverageOf(report: Pick<Report, 'summary' | 'files'>): Coverage {
  let records = 0;
  let partlyRead = 0;
  let skipped = 0;
  const unread: UnreadFile[] = [];
  const notTraces: NotTraceFile[] = [];
  for (const file of report.files) {
    if (file.notTrace !== undefined) {
      notTraces.push({ path: file.path, reason: file.notTrace });
      continue;
    }
    records += file.records;
    let left = 0;
    let unparsed = false;
    for (const skip of file.skipped ?? []) {
      left += skip.count;
      if (COULD_NOT_PARSE.has(skip.reason)) unparsed = true;
    }
    skipped += left;
    const shaped = file.toolShaped ?? 0;
    if (file.records > 0) {
      if (shaped > 0) partlyRead += 1;
      continue;
    }
    const reason: UnreadReason = file.format === 'unknown' ? 'unknown-format' : unparsed ? 'unreadable' : left > 0 ? 'skipped' : 'no-records';
    unread.push({ path: file.path, reason, ...(reason === 'unknown-format' ? {} : { format: file.format }), ...(shaped > 0 ? { toolShaped: shaped } : {}) });
  }
  const files = report.summary.files;
  const { toolCalls, toolResults } = report.summary;
  return { files, read: Math.max(0, files - unread.length), unread, partlyRead, notTraces, records, toolCalls, toolResults, skipped };
}

const REASON_WORDS: Record<UnreadReason, string> = { 'unknown-format': 'unknown format', unreadable: 'unreadable', skipped: 'skipped', 'no-records': 'no records' };
const REASON_LINES: Record<UnreadReason, string> = {
  'unknown-format': 'unknown format: no format reads it',
  unreadable: 'unreadable: no record could be read (its malformed-record or truncated-tail finding says why)',
  skipped: 'skipped: every record found was left out',
  'no-records': 'no records came out of it',
};

/** The unread files counted by reason, in a fixed order: `7 unknown format, 1 skipped`. */
export function unreadBreakdown(unread: readonly UnreadFile[]): string {
  const counts = new Map<UnreadReason, number>();
  for (const file of unread) counts.set(file.reason, (counts.get(file.reason) ?? 0) + 1);
  return (Object.keys(REASON_WORDS) as UnreadReason[]).filter((r) => counts.has(r)).map((r) => `${groupDigits(counts.get(r)!)} ${REASON_WORDS[r]}`).join(', ');
}

/**
 * One unread file's reason in words (no path): `skipped: every record found was left out (read as openai)`.
 * `name` renders the format's id (a code span in markdown: a custom format is named by the configuration).
 */
export function unreadReasonLine(file: UnreadFile, name: (text: string) => string = (text) => text): string {
  const shaped = file.toolShaped ? `; it holds ${groupDigits(file.toolShaped)} tool-shaped place(s)` : '';
  return `${REASON_LINES[file.reason]}${file.format ? ` (read as ${name(file.format)})` : ''}${shaped}`;
}

/** Files holding tool-shaped content that was not read: the read ones in part, and the unread ones. */
export function toolShapedFiles(c: Coverage): number {
  return c.partlyRead + c.unread.filter((file) => (file.toolShaped ?? 0) > 0).length;
}
