/**
 * What an audit reads and what its report says about each file, run and catalog:
 * plain data, shared by io/ (which lists the inputs), audit/ (which fills them in)
 * and report/ (which renders them).
 */

/** One file to audit: where to read it and the name the report uses for it. */
export interface AuditInput {
  readonly path: string;
  readonly display: string;
  /**
   * The file's path below the folder or pattern base it was found under (a file named
   * itself: its display name): what its findings' identity holds, so that `run1/` and
   * `run2/` audited apart give the same fingerprints. Absent: the display name.
   */
  readonly within?: string;
  /** What the file's writer said about it (the OTLP receiver's losses): each becomes a finding on the file. */
  readonly notes?: readonly InputNote[];
}

/** A finding about a file from the code that wrote it, not from its records. */
export interface InputNote {
  readonly ruleId: 'receiver-loss';
  readonly message: string;
}

export interface FileSummary {
  readonly path: string;
  readonly format: string;
  readonly records: number;
  readonly runs: number;
  /** Source records read and left out, per reason (malformed ones included), sorted by reason. */
  readonly skipped: FileSkip[];
  /** Tool calls and results read from the file (absent in reports written before 0.2). */
  readonly toolCalls?: number;
  readonly toolResults?: number;
  /** Places holding tool-shaped content that was not read (partial-read); absent when none. */
  readonly toolShaped?: number;
  /** What the file is when no format claimed it and it is not trace-like at all (`a PNG image`: src/ingest/trace-like.ts); absent for every other file. */
  readonly notTrace?: string;
}

export interface RunSummary {
  readonly file: string;
  readonly runId: string | null;
  readonly format: string;
  readonly catalogSha256: string | null;
  readonly toolCalls: number;
  readonly toolResults: number;
}

/** A run's catalog as the report lists it: its hash and each tool's schema hash (catalogSnapshot). */
export interface CatalogSummary {
  readonly sha256: string | null;
  readonly tools: Array<{ name: string; schemaSha256: string | null }>;
}

/** One reason a parser left records of a file out: how many, and the first line. */
export interface FileSkip {
  readonly reason: string;
  readonly count: number;
  readonly firstLine: number;
}

