/**
 * Limits on what one input may cost. Each is a setting of the configuration file's
 * `limits` (kebab-case; LIMIT_SETTINGS names the size limits; docs/configuration.md lists them
 * with their defaults); these are the defaults. Past a size limit the file gets one
 * finding that names the limit and its setting; it is never an internal error.
 */
export interface ReadLimits {
  /** Largest plain file read (past it the file is not read, only reported). */
  readonly maxFileBytes: number;
  /** Longest line read as a record; longer lines are reported and skipped. */
  readonly maxLineBytes: number;
  /** Cap on the inflated size of a .gz file (zip bombs stop here). */
  readonly maxInflatedBytes: number;
  /** Deepest JSON nesting accepted in one record. */
  readonly maxDepth: number;
  /** Largest file read whole, for formats that are one JSON document (not lines). */
  readonly maxDocumentBytes: number;
  /**
   * Largest item of a streamed list of a one-document format (an event, a step,
   * a sample), and largest rest of such a document outside those lists: a larger
   * item is one `malformed-record` and is passed over (src/io/json-stream/).
   */
  readonly maxElementBytes: number;
  /**
   * A run with no record for this many records of the file is complete: it is audited
   * and its memory released. 0 keeps every run open until its file ends.
   */
  readonly runIdleRecords: number;
  /**
   * A run that reaches this many records is audited in parts of at most this many (the
   * calls of a part still awaiting a result carried into the next), so one endless run
   * costs bounded memory. 0: no limit.
   */
  readonly maxRunRecords: number;
  /**
   * Most object keys one JSON-lines record may hold, at every level together: a record
   * with more is one `too-many-keys` finding and is left out (its cost grows with its keys).
   */
  readonly maxRecordKeys: number;
}

export const DEFAULT_LIMITS: ReadLimits = {
  maxFileBytes: 4 * 1024 * 1024 * 1024,
  maxLineBytes: 16 * 1024 * 1024,
  maxInflatedBytes: 4 * 1024 * 1024 * 1024,
  maxDepth: 256,
  maxDocumentBytes: 512 * 1024 * 1024,
  maxElementBytes: 64 * 1024 * 1024,
  runIdleRecords: 20_000,
  maxRunRecords: 200_000,
  maxRecordKeys: 10_000,
};

/** The size limits, by the name a finding past one gives (a limit added here is named by its setting too). */
export type SizeLimit = 'maxFileBytes' | 'maxLineBytes' | 'maxInflatedBytes' | 'maxDocumentBytes' | 'maxElementBytes';

/** The configuration key of each size limit, for the messages that name it. */
export const LIMIT_SETTINGS: { readonly [K in SizeLimit]: string } = {
  maxFileBytes: 'limits.max-file-bytes',
  maxLineBytes: 'limits.max-line-bytes',
  maxInflatedBytes: 'limits.max-inflated-bytes',
  maxDocumentBytes: 'limits.max-document-bytes',
  maxElementBytes: 'limits.max-element-bytes',
};

/** `limit of N bytes (limits.key)`: how a finding names a size limit and its setting. */
export function limitText(key: SizeLimit, value: number): string {
  return `limit of ${value} bytes (${LIMIT_SETTINGS[key]})`;
}
