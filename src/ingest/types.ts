import type { DetectSample, ParseInput } from '../io/parse-input.js';
import type { TraceRecord } from '../model/records.js';

/** Problems found while reading a file; each becomes a finding of the rule with this id. */
export type DiagnosticRuleId =
  | 'malformed-record'
  | 'truncated-tail'
  | 'byte-order-mark'
  | 'missing-final-newline'
  | 'unknown-format'
  | 'ingest-note'
  | 'partial-read'
  | 'receiver-loss'
  | 'too-many-keys';

export interface Diagnostic {
  readonly ruleId: DiagnosticRuleId;
  readonly line: number;
  readonly message: string;
  readonly runId?: string | null;
  readonly callId?: string | null;
  readonly tool?: string | null;
}

/**
 * A source record (a line, an event, an observation) the parser read and did not
 * turn into anything, with why. The engine counts skips per file and reason
 * (the report's `files[].skipped`) and raises `partial-read` when a skipped
 * record looks like a tool call or result. A record reported as
 * `malformed-record` is counted by the engine already: do not skip it again.
 */
export interface Skip {
  readonly line: number;
  /** A short, stable reason in words, e.g. `record type "progress"` (counted per distinct reason). */
  readonly reason: string;
  /** The skipped value, when parsed: the engine looks in it for tool calls and results. */
  readonly value?: unknown;
  /** The parser knows the record is about a tool call or result (no need to look in `value`). */
  readonly toolLike?: boolean;
}

/**
 * What names a run across reruns of the same agent suite (its scenario; see
 * docs/report-schema.md): a name the trace carries for it (a test or eval case, a
 * task and sample, an instance id), and the text of its task input (its first user
 * message or prompt), digested by the engine. Never an id the run was given afresh.
 */
export interface ScenarioNote {
  readonly runId: string | null;
  readonly name?: string;
  readonly input?: string;
}

/** Where a parser sends what it reads. Records are grouped into runs by the engine. */
export interface RecordSink {
  record(record: TraceRecord): void;
  diagnostic(diagnostic: Diagnostic): void;
  /** A source record read and left out (never silently: see Skip). */
  skip(skip: Skip): void;
  /** The parser knows this run is complete (its state can be released). Optional. */
  endRun?(runId: string | null): void;
  /** The run's scenario, best before its first record (the first name and the first input of a run count). Optional. */
  scenario?(note: ScenarioNote): void;
  /** Each JSON value a JSON-lines reader parsed, with its line: the configuration's `identity.scenario` query reads it. Optional. */
  value?(value: unknown, line: number): void;
}

export type { DetectSample, ParseInput } from '../io/parse-input.js';
export { eachLine } from '../io/parse-input.js';

/**
 * How strongly a sample shows a format (what `TraceFormat.detect` returns).
 * The format with the strongest evidence reads the file (src/ingest/detect.ts);
 * two formats with equal evidence are a tie, read by the first in registry order
 * with an `ingest-note` that names the other.
 */
export const Evidence = {
  /** Not this format. */
  none: 0,
  /** A generic shape other formats share (e.g. a list of role/content messages). */
  shape: 1,
  /** The structure this format reads (its keys and nesting), not unique to it. */
  structure: 2,
  /** A signature only this format has (a version marker, a record type no other format writes). */
  signature: 3,
  /** A format from the configuration file whose own `detect` condition holds: the user's word outranks any built-in evidence. */
  configured: 4,
} as const;

/** One trace format: detection plus a parser into the normalized model. */
export interface TraceFormat {
  readonly id: string;
  readonly description: string;
  /**
   * The evidence (an `Evidence` value; 0 = not this format) that the sample is
   * this format. Claim `signature` only on what this format alone writes. A
   * detector written against the old boolean contract adapts in one line:
   * `detect: (sample) => (looksLikeIt(sample) ? Evidence.signature : Evidence.none)`.
   */
  detect(sample: DetectSample): number;
  /**
   * For a file no format claims: how close the sample comes to this format
   * (a positive number, higher = closer) and what did not fit, or null.
   * Optional; the unknown-format message names the closest format.
   */
  misfit?(sample: DetectSample): { readonly closeness: number; readonly reason: string } | null;
  parse(input: ParseInput, sink: RecordSink): Promise<void>;
  /**
   * The top-level field every record's run id comes from, when each line parses on its
   * own (no state carried from line to line that records depend on): the audit may then
   * route one file's lines to several threads by this field (src/audit/route/).
   */
  readonly runKey?: string;
  /**
   * The parser ends every run it starts (`sink.endRun`) and bounds by itself how long it
   * holds a run's records (OTLP traces: trace-buffer.ts), so the engine never closes one
   * of its runs as idle: a run it hands on in parts stays one run, cut only at
   * `limits.max-run-records`.
   */
  readonly endsRuns?: boolean;
}
