import type { RecordSink } from '../types.js';
import { assembleTrace } from './assemble.js';
import { mapSpan, type MappedSpan } from './map-span.js';
import type { OtelSpan } from './span.js';

interface TraceSpans {
  readonly spans: MappedSpan[];
  readonly ids: Set<string>;
  repeated: number;
  firstRepeatLine: number;
  /** The span count of the file when this trace last got a span. */
  last: number;
}

/** How often (in spans) idle traces are looked for. */
const SWEEP_EVERY = 1024;

/**
 * Spans grouped by trace id, in order of first appearance; each trace is one
 * run. Spans are mapped as they arrive (only the mapped facts are kept, not the
 * attribute Map). A span id seen again in its trace (an exporter retry delivers
 * a batch twice) is read once, and a note says how many repeats were dropped.
 *
 * OTLP says nowhere that a trace is complete, so a trace that got no span for
 * `idleSpans` spans of the file (the `limits.run-idle-records` setting, as for
 * every streamed format) is assembled, handed on and forgotten: memory is bounded
 * by the traces in flight, not by the file. A trace whose spans come back after
 * that is assembled again as a second part, and the engine reports the split
 * (`run-split`). 0 keeps every trace until the file ends.
 */
export class TraceBuffer {
  private readonly traces = new Map<string | null, TraceSpans>();
  private count = 0;

  constructor(
    private readonly file: string,
    private readonly sink: RecordSink,
    private readonly idleSpans: number,
  ) {}

  add(span: OtelSpan): void {
    this.count += 1;
    let trace = this.traces.get(span.traceId);
    if (!trace) this.traces.set(span.traceId, (trace = { spans: [], ids: new Set(), repeated: 0, firstRepeatLine: 0, last: this.count }));
    trace.last = this.count;
    if (trace.ids.has(span.spanId)) {
      if (trace.repeated === 0) trace.firstRepeatLine = span.line;
      trace.repeated += 1;
    } else {
      trace.ids.add(span.spanId);
      trace.spans.push(mapSpan(span));
    }
    if (this.idleSpans > 0 && this.count % SWEEP_EVERY === 0) this.sweep();
  }

  /** Every trace still open, at the end of the file. */
  flush(): void {
    for (const traceId of [...this.traces.keys()]) this.release(traceId);
  }

  private sweep(): void {
    for (const [traceId, trace] of this.traces) if (this.count - trace.last >= this.idleSpans) this.release(traceId);
  }

  private release(traceId: string | null): void {
    const trace = this.traces.get(traceId);
    if (!trace) return;
    this.traces.delete(traceId);
    if (trace.repeated > 0) {
      const which = traceId === null ? 'spans without a trace id' : `trace '${traceId}'`;
      const message = `${trace.repeated} span(s) of ${which} repeat a span id already read (a batch exported twice?); each span was read once`;
      this.sink.diagnostic({ ruleId: 'ingest-note', line: trace.firstRepeatLine, runId: traceId, message });
    }
    assembleTrace(this.file, traceId, trace.spans, this.sink);
  }
}
