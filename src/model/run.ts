import type {
  BoundaryRecord,
  CatalogRecord,
  LlmSpan,
  RedactionReceipt,
  ToolCall,
  ToolResult,
  TraceRecord,
} from './records.js';

/** One agent attempt: every record of one run id in one file, in file order. */
export interface Run {
  readonly file: string;
  readonly runId: string | null;
  readonly format: string;
  readonly records: readonly TraceRecord[];
  readonly catalogs: readonly CatalogRecord[];
  readonly llmSpans: readonly LlmSpan[];
  readonly calls: readonly ToolCall[];
  readonly results: readonly ToolResult[];
  readonly boundaries: readonly BoundaryRecord[];
  readonly redactions: readonly RedactionReceipt[];
}

/** Accumulates one run's records; `finish()` freezes it into a Run. */
export class RunBuilder {
  private readonly records: TraceRecord[] = [];
  private readonly catalogs: CatalogRecord[] = [];
  private readonly llmSpans: LlmSpan[] = [];
  private readonly calls: ToolCall[] = [];
  private readonly results: ToolResult[] = [];
  private readonly boundaries: BoundaryRecord[] = [];
  private readonly redactions: RedactionReceipt[] = [];

  constructor(
    readonly file: string,
    readonly runId: string | null,
    readonly format: string,
  ) {}

  get size(): number {
    return this.records.length;
  }

  add(record: TraceRecord): void {
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

  finish(): Run {
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
    };
  }
}

/** Builds a Run from records in one go (tests, small formats). */
export function runOf(file: string, runId: string | null, format: string, records: Iterable<TraceRecord>): Run {
  const builder = new RunBuilder(file, runId, format);
  for (const record of records) builder.add(record);
  return builder.finish();
}
