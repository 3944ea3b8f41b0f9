/**
 * The part of a finding's identity that names its file: the path inside what was
 * audited, with the segments a live agent suite writes afresh on every run made
 * generic. A suite that runs again writes `sessions/3f2c…e1.jsonl` where it wrote
 * `sessions/9a41…07.jsonl`, `run-20260105T101112Z.jsonl` where it wrote
 * `run-20260104T093015Z.jsonl`: both pairs name the same place. docs/report-schema.md
 * lists what is replaced; the replacements are words in braces, which no generated
 * segment is, so a normalised path never meets a real one of another shape.
 */

/** 8-4-4-4-12 hex digits, dashes optional (a UUID written compact is 32 hex digits, caught below too). */
const UUID = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/gi;
/** ISO dates and times in their common file-name spellings: 2026-01-05, 20260105, 2026-01-05T10-11-12.123Z, 20260105T101112Z, 10:11:12. */
const DATE_TIME = /(?:19|20)\d\d-?[01]\d-?[0-3]\d(?:[T_ -]?[0-2]\d[-:.]?[0-5]\d(?:[-:.]?[0-5]\d(?:[.,]\d+)?)?(?:Z|[+-][0-2]\d[:-]?[0-5]\d)?)?/g;
const CLOCK = /\b[0-2]\d[-:][0-5]\d[-:][0-5]\d(?:[.,]\d+)?\b/g;
/** A run of 12 or more hex digits with a digit and a letter among them (a hash, a trace id, a compact UUID). */
const LONG_HEX = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/gi;
/** A random token of 20 or more letters and digits in mixed case with a digit, or of exactly 22 (a short UUID: Inspect's log ids). */
const TOKEN = /(?<![A-Za-z0-9])(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])(?:(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{20,}|[A-Za-z0-9]{22})(?![A-Za-z0-9])/g;
/** Ten or more digits: an epoch time in seconds or milliseconds, a process or job id. */
const LONG_NUMBER = /\d{10,}/g;
/** A run, attempt, job, build or epoch number: `run-17`, `attempt_2`, `job17`. */
const RUN_NUMBER = /\b(run|attempt|retry|job|build|epoch|try|iteration|iter|worker|pid)([-_. ]?)\d+/gi;

/** `path` (slashes, as a report names it) with its generated segments made generic. */
export function normalisePath(path: string): string {
  return path
    .replace(UUID, '{uuid}')
    .replace(DATE_TIME, '{time}')
    .replace(CLOCK, '{time}')
    .replace(LONG_HEX, '{hex}')
    .replace(TOKEN, '{id}')
    .replace(LONG_NUMBER, '{number}')
    .replace(RUN_NUMBER, (_all, word: string, sep: string) => `${word}${sep}{n}`);
}

/**
 * The text of a finding that has no content key of its own (a message about a file),
 * with what changes from run to run made generic: the generated segments above, line
 * and byte numbers, and every other number.
 */
export function normaliseMessage(message: string): string {
  return normalisePath(message).replace(/\d+/g, '#');
}
