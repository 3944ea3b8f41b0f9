/** Limits on what one input may cost. All are configurable; these are the defaults. */
export interface ReadLimits {
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
}

export const DEFAULT_LIMITS: ReadLimits = {
  maxLineBytes: 16 * 1024 * 1024,
  maxInflatedBytes: 4 * 1024 * 1024 * 1024,
  maxDepth: 256,
  maxDocumentBytes: 512 * 1024 * 1024,
  maxElementBytes: 64 * 1024 * 1024,
  runIdleRecords: 20_000,
};
