import type { LineEvent } from '../io/line-splitter.js';
import type { ReadLimits } from '../io/limits.js';
import type { TraceRecord } from '../model/records.js';

/** Problems found while reading a file; each becomes a finding of the rule with this id. */
export type DiagnosticRuleId =
  | 'malformed-record'
  | 'truncated-tail'
  | 'byte-order-mark'
  | 'missing-final-newline'
  | 'unknown-format'
  | 'ingest-note';

export interface Diagnostic {
  readonly ruleId: DiagnosticRuleId;
  readonly line: number;
  readonly message: string;
  readonly runId?: string | null;
  readonly callId?: string | null;
  readonly tool?: string | null;
}

/** Where a parser sends what it reads. Records are grouped into runs by the engine. */
export interface RecordSink {
  record(record: TraceRecord): void;
  diagnostic(diagnostic: Diagnostic): void;
  /** The parser knows this run is complete (its state can be released). Optional. */
  endRun?(runId: string | null): void;
}

/** The start of a file, for detection: raw head bytes and the first parsed JSON lines. */
export interface DetectSample {
  readonly file: string;
  readonly head: Buffer;
  /** First few non-blank lines that parsed as JSON (may be empty). */
  readonly jsonLines: readonly unknown[];
  /** The whole head parsed as one JSON document, when it fits and parses; undefined otherwise. */
  readonly document: unknown;
}

export interface ParseInput {
  readonly file: string;
  readonly limits: ReadLimits;
  /** The file as lines (streamed). */
  lines(): AsyncIterable<LineEvent>;
  /** The same lines in arrays, one per chunk read (faster: one await per chunk). */
  lineBatches(): AsyncIterable<LineEvent[]>;
  /** The file as one buffer (for whole-document formats), capped by the limits. */
  bytes(): Promise<Buffer>;
}

/** One trace format: detection plus a parser into the normalized model. */
export interface TraceFormat {
  readonly id: string;
  readonly description: string;
  /** True when the sample looks like this format. Called in registry order. */
  detect(sample: DetectSample): boolean;
  parse(input: ParseInput, sink: RecordSink): Promise<void>;
}
