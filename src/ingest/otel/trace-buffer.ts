import type { RecordSink } from '../types.js';
import { assembleTrace } from './assemble.js';
import { mapSpan, type MappedSpan } from './map-span.js';
import type { OtelSpan } from './span.js';

interface TraceSpans {
  readonly spans: MappedSpan[];
  readonly ids: Set<string>;
  repeated: number;
  firstRepeatLine: number;
}

/**
 * Spans grouped by trace id, in order of first appearance; each trace is one
 * run. Spans are mapped as they arrive (only the mapped facts are kept, not the
 * attribute Map). A span id seen again in its trace (an exporter retry delivers
 * a batch twice) is read once, and a note says how many repeats were dropped.
 */
export class TraceBuffer {
  private readonly traces = new Map<string | null, TraceSpans>();

  add(span: OtelSpan): void {
    let trace = this.traces.get(span.traceId);
    if (!trace) this.traces.set(span.traceId, (trace = { spans: [], ids: new Set(), repeated: 0, firstRepeatLine: 0 }));
    if (trace.ids.has(span.spanId)) {
      if (trace.repeated === 0) trace.firstRepeatLine = span.line;
      trace.repeated += 1;
      return;
    }
    trace.ids.add(span.spanId);
    trace.spans.push(mapSpan(span));
  }

  flush(file: string, sink: RecordSink): void {
    for (const [traceId, trace] of this.traces) {
      if (trace.repeated > 0) {
        const which = traceId === null ? 'spans without a trace id' : `trace '${traceId}'`;
        const message = `${trace.repeated} span(s) of ${which} repeat a span id already read (a batch exported twice?); each span was read once`;
        sink.diagnostic({ ruleId: 'ingest-note', line: trace.firstRepeatLine, runId: traceId, message });
      }
      assembleTrace(file, traceId, trace.spans, sink);
    }
    this.traces.clear();
  }
}
