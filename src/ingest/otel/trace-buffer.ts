import type { ReadLimits } from '../../io/limits.js';
import type { RecordSink } from '../types.js';
import { assembleTrace, newSeen, type TraceSeen } from './assemble.js';
import { mapSpan, type MappedSpan } from './conventions/map-span.js';
import type { OtelSpan } from './span.js';

interface TraceSpans {
  spans: MappedSpan[];
  ids: Set<string>;
  /** What the parts handed on so far gave (null until a part is). */
  seen: TraceSeen | null;
  repeated: number;
  firstRepeatLine: number;
  /** The span count of the file when this trace last got a span. */
  last: number;
}

/** How often (in spans) idle traces are looked for. */
const SWEEP_EVERY = 1024;

/**
 * A held span keeps its payloads (arguments, results, messages) until its trace is
 * assembled, about 2 KB of heap each on the bench's OTLP files where a held record is
 * about 250 B: a trace is handed on in parts of a tenth of `limits.max-run-records`
 * spans (20,000 by default).
 */
const SPANS_PER_RECORD_LIMIT = 10;

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
 *
 * A trace that reaches `maxSpans` spans (a tenth of `limits.max-run-records`) is assembled and
 * handed on as a part, and goes on in the next, so one trace of any length holds at
 * most that many spans: the parts share the call and result ids already given (a
 * later request's input repeats every earlier call), not their spans. The engine
 * cuts its run by the same setting. A span repeated across a cut is read twice.
 */
export class TraceBuffer {
  private readonly traces = new Map<string | null, TraceSpans>();
  private count = 0;
  private readonly idleSpans: number;
  private readonly maxSpans: number;

  constructor(
    private readonly file: string,
    private readonly sink: RecordSink,
    limits: Pick<ReadLimits, 'runIdleRecords' | 'maxRunRecords'>,
  ) {
    this.idleSpans = limits.runIdleRecords;
    this.maxSpans = Math.ceil(limits.maxRunRecords / SPANS_PER_RECORD_LIMIT);
  }

  add(span: OtelSpan): void {
    this.count += 1;
    let trace = this.traces.get(span.traceId);
    if (!trace) this.traces.set(span.traceId, (trace = { spans: [], ids: new Set(), seen: null, repeated: 0, firstRepeatLine: 0, last: this.count }));
    trace.last = this.count;
    if (trace.ids.has(span.spanId)) {
      if (trace.repeated === 0) trace.firstRepeatLine = span.line;
      trace.repeated += 1;
    } else {
      trace.ids.add(span.spanId);
      trace.spans.push(mapSpan(span));
      if (this.maxSpans > 0 && trace.spans.length >= this.maxSpans) this.handOnPart(span.traceId, trace);
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
    this.assemble(traceId, trace, true);
  }

  /** The trace's spans so far as one part; the trace stays open for the rest. */
  private handOnPart(traceId: string | null, trace: TraceSpans): void {
    trace.seen ??= newSeen();
    this.assemble(traceId, trace, false);
    trace.spans = [];
    trace.ids = new Set();
    trace.repeated = 0;
  }

  private assemble(traceId: string | null, trace: TraceSpans, last: boolean): void {
    if (trace.repeated > 0) {
      const which = traceId === null ? 'spans without a trace id' : `trace '${traceId}'`;
      const message = `${trace.repeated} span(s) of ${which} repeat a span id already read (a batch exported twice?); each span was read once`;
      this.sink.diagnostic({ ruleId: 'ingest-note', line: trace.firstRepeatLine, runId: traceId, message });
    }
    assembleTrace(this.file, traceId, trace.spans, this.sink, trace.seen === null ? undefined : { seen: trace.seen, last });
  }
}
