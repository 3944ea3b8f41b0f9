import type {
  BlockedSpan,
  BoundaryRecord,
  CatalogRecord,
  LlmSpan,
  RedactionReceipt,
  ToolCall,
  ToolResult,
} from './records.js';

/**
 * A tool call as its run holds it: the call without its arguments. What the rules
 * need from the arguments is taken when the call arrives (src/audit/held/hold.ts) and
 * kept here as small fields, so a run holds no payload text and a rule that reads
 * `args` in `check` does not typecheck: payload scans belong in `Rule.record`.
 */
export interface HeldCall extends Omit<ToolCall, 'args' | 'argsCanonical'> {
  /** Whether the call recorded arguments (`args` was not undefined). */
  readonly hasArgs: boolean;
  /** Identity of (tool, canonical arguments), compacted (call-identity.ts `argsKey`); null when the call has no usable arguments. */
  readonly argsKey: string | null;
}

/** A stack trace found in a result's strings: its measure and where it is (stack-trace-in-result). */
export interface HeldTrace {
  readonly language: string;
  readonly frames: number;
  readonly tokens: number;
  readonly path: string;
}

/** A tool result as its run holds it: the result without its content (see HeldCall). */
export interface HeldResult extends Omit<ToolResult, 'content' | 'contentCanonical'> {
  /** Whether the result recorded content (`content` was not undefined). */
  readonly hasContent: boolean;
  /** The content alone says the call failed (error-result.ts). */
  readonly errorInContent: boolean;
  /** The code an error result's content carries (error-code.ts); null for a result that is no error, or has its own `errorCode`. */
  readonly contentErrorCode: string | null;
  /** Identity of the canonical content, compacted; null when it has none or no active rule keeps it ('response-key'). */
  readonly responseKey: string | null;
  /** The stack trace with the most frames in the content; null when none or no active rule keeps it ('stack-trace'). */
  readonly stackTrace: HeldTrace | null;
}

/** A record as its run holds it: calls and results without their payloads, the rest as parsed. */
export type HeldRecord = CatalogRecord | LlmSpan | BlockedSpan | HeldCall | HeldResult | BoundaryRecord | RedactionReceipt;

/** One agent attempt: every record of one run id in one file, in file order. */
export interface Run {
  readonly file: string;
  readonly runId: string | null;
  readonly format: string;
  readonly records: readonly HeldRecord[];
  readonly catalogs: readonly CatalogRecord[];
  readonly llmSpans: readonly LlmSpan[];
  readonly calls: readonly HeldCall[];
  readonly results: readonly HeldResult[];
  readonly boundaries: readonly BoundaryRecord[];
  readonly redactions: readonly RedactionReceipt[];
  /**
   * The run's catalog when this is a later part of a run cut at `limits.max-run-records`
   * and the catalog record is in an earlier part (null otherwise): the catalog the
   * calls of this part are checked against, not one of this part's records.
   */
  readonly carriedCatalog: CatalogRecord | null;
  /** Which part this is of a run cut at `limits.max-run-records` (1, 2, ...); 0 for a run audited whole. */
  readonly part: number;
}

/** Accumulates one run's held records; `finish()` freezes it into a Run. */
export class RunBuilder {
  private readonly records: HeldRecord[] = [];
  private readonly catalogs: CatalogRecord[] = [];
  private readonly llmSpans: LlmSpan[] = [];
  private readonly calls: HeldCall[] = [];
  private readonly results: HeldResult[] = [];
  private readonly boundaries: BoundaryRecord[] = [];
  private readonly redactions: RedactionReceipt[] = [];

  constructor(
    readonly file: string,
    readonly runId: string | null,
    readonly format: string,
    /** The catalog of the run's earlier parts (Run.carriedCatalog). */
    readonly carriedCatalog: CatalogRecord | null = null,
  ) {}

  get size(): number {
    return this.records.length;
  }

  /** The run's catalog so far: its first catalog record (or the one carried from an earlier part), null before one arrives. */
  get catalog(): CatalogRecord | null {
    return this.catalogs[0] ?? this.carriedCatalog;
  }

  add(record: HeldRecord): void {
    this.records.push(record);
    switch (record.kind) {
      case 'catalog':
        this.catalogs.push(record);
        break;
      case 'llm':
        this.llmSpans.push(record);
        break;
      case 'tool_call':
        this.calls.push(record);
        break;
      case 'tool_result':
        this.results.push(record);
        break;
      case 'boundary':
        this.boundaries.push(record);
        break;
      case 'redaction':
        this.redactions.push(record);
        break;
    }
  }

  /** The run, or with `part` its part of that number (Run.part). */
  finish(part = 0): Run {
    return {
      file: this.file,
      runId: this.runId,
      format: this.format,
      records: this.records,
      catalogs: this.catalogs,
      llmSpans: this.llmSpans,
      calls: this.calls,
      results: this.results,
      boundaries: this.boundaries,
      redactions: this.redactions,
      carriedCatalog: this.carriedCatalog,
      part,
    };
  }
}

/**
 * The tool results a run read: its results, and each boundary record of a call
 * with no result of its own (a boundary record hashes one tool output at the
 * process, adapter and model boundaries, so a file of them is audited output).
 */
export function resultCount(run: Run): number {
  const answered = new Set(run.results.map((result) => result.callId));
  return run.results.length + run.boundaries.filter((b) => b.callId === null || !answered.has(b.callId)).length;
}
