/** Bit flags on a timeline bar. */
export const BAR_FLAG = {
  /** An llm span (lane "model"). */
  llm: 1,
  /** The call's result is an error. */
  error: 2,
  /** The result came after the call's deadline (a budget miss). */
  late: 4,
  /** No result: an orphan, drawn open-ended to the run's end. */
  open: 8,
  /** One of a group of identical calls (a retry storm). */
  storm: 16,
} as const;

/** One bar: an llm span, or a tool call from its call to its result. */
export interface TimelineBar {
  /** Index into RunTimeline.lanes. */
  readonly lane: number;
  /** Milliseconds from the run's start, or the record's position when the run is not timed. */
  readonly start: number;
  /** Where the result came; null for an orphan (open to the run's end). */
  readonly end: number | null;
  /** 1-based line of the call (or span) in its file. */
  readonly line: number;
  /** Sanitized call id. */
  readonly callId: string | null;
  readonly flags: number;
  /** Retry storm this call belongs to (1, 2, … within the run), 0 for none. */
  readonly storm: number;
}

/** A compact, sanitized picture of one run, kept beside the JSON report (which stays unchanged). */
export interface RunTimeline {
  /** Sanitized file name and run id, as the report names the run. */
  readonly file: string;
  readonly runId: string | null;
  /** False: the run has records without timestamps; positions are record order. */
  readonly timed: boolean;
  /** The run's end on the same axis as the bars. */
  readonly end: number;
  /** Lane names (sanitized tool names; "model" for llm spans), in first-seen order. */
  readonly lanes: readonly string[];
  /** Bars in start order. */
  readonly bars: readonly TimelineBar[];
  /** Bars left out past the per-run cap. */
  readonly truncated: number;
}
