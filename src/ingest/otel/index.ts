import type { JsonObject } from '../fields.js';
import { excerpt, forEachJsonLine } from '../json-lines.js';
import type { DetectSample, ParseInput, RecordSink, TraceFormat } from '../types.js';
import { assembleTrace } from './assemble.js';
import { isJaegerContainer, jaegerSpans } from './jaeger.js';
import { mapSpan, type MappedSpan } from './map-span.js';
import { isOtlpContainer, otlpSpans } from './otlp.js';
import type { OtelSpan } from './span.js';
import { spanLineFinder } from './span-lines.js';

type Reader = (container: JsonObject, lineOf: (rawSpanId: unknown) => number, onSpan: (span: OtelSpan) => void) => number;

interface TraceSpans {
  readonly spans: MappedSpan[];
  readonly ids: Set<string>;
  repeated: number;
  firstRepeatLine: number;
}

/**
 * Spans grouped by trace id, in order of first appearance; each trace is one
 * run. A span id seen again in its trace (an exporter retry delivers a batch
 * twice) is read once, and a note says how many repeats were dropped.
 */
class TraceBuffer {
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
        const message = `${trace.repeated} span(s) of ${traceId === null ? 'spans without a trace id' : `trace '${traceId}'`} repeat a span id already read (a batch exported twice?); each span was read once`;
        sink.diagnostic({ ruleId: 'ingest-note', line: trace.firstRepeatLine, runId: traceId, message });
      }
      assembleTrace(file, traceId, trace.spans, sink);
    }
    this.traces.clear();
  }
}

function skippedNote(sink: RecordSink, line: number, skipped: number): void {
  if (skipped > 0) sink.diagnostic({ ruleId: 'malformed-record', line, message: `${skipped} span(s) without a usable spanId were skipped` });
}

/**
 * A whole JSON document (pretty-printed OTLP, Tempo or Jaeger exports): read
 * with input.bytes() (capped by limits.maxDocumentBytes); each span's line is
 * the line of its id key (see span-lines.ts).
 */
async function parseDocument(input: ParseInput, sink: RecordSink, accepts: (v: unknown) => v is JsonObject, read: Reader, idKeys: readonly string[], what: string): Promise<void> {
  const text = (await input.bytes()).toString('utf8').replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `not a JSON document: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  if (!accepts(value)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `not ${what}: "${excerpt(text)}"` });
    return;
  }
  const buffer = new TraceBuffer();
  skippedNote(sink, 1, read(value, spanLineFinder(text, idKeys), (span) => buffer.add(span)));
  buffer.flush(input.file, sink);
}

/**
 * Is the file JSON lines (one container per line)? Yes when its first non-blank
 * line is a complete JSON value. A first line too long to read as a line is a
 * one-line document when nothing follows it, else the first of many lines.
 */
async function isLineDelimited(input: ParseInput): Promise<boolean> {
  let unreadFirst = false;
  for await (const event of input.lines()) {
    if (unreadFirst) {
      if (event.type === 'bad-line' || event.text.trim() !== '') return true;
      continue;
    }
    if (event.type === 'bad-line') {
      if (event.code !== 'line-too-long') return false;
      unreadFirst = true;
      continue;
    }
    const text = event.text.trim();
    if (text === '') continue;
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }
  return false;
}

const OTLP_HEAD = /^\s*\{\s*("(resourceSpans|resource_spans|batches)"\s*:\s*\[|"trace"\s*:\s*\{\s*"resourceSpans")/;
const JAEGER_HEAD = /^\s*\{\s*"data"\s*:\s*\[\s*\{\s*"traceID"\s*:/;

function headText(sample: DetectSample): string {
  return sample.head.subarray(0, 256).toString('utf8');
}

/**
 * OTLP JSON: the collector's file exporter (one `{"resourceSpans":[…]}` per line),
 * the protobuf JSON mapping, Tempo `{"batches":[…]}`. A run is a trace id.
 */
export const otlpFormat: TraceFormat = {
  id: 'otlp-json',
  description: 'OpenTelemetry OTLP JSON traces (collector file exporter lines, protobuf JSON, Tempo batches)',
  detect(sample) {
    return isOtlpContainer(sample.document) || isOtlpContainer(sample.jsonLines[0]) || OTLP_HEAD.test(headText(sample));
  },
  async parse(input, sink) {
    if (!(await isLineDelimited(input))) {
      await parseDocument(input, sink, isOtlpContainer, otlpSpans, ['spanId', 'span_id'], 'an OTLP JSON document (resourceSpans or batches)');
      return;
    }
    const buffer = new TraceBuffer();
    await forEachJsonLine(input, sink, (value, line) => {
      if (!isOtlpContainer(value)) {
        sink.diagnostic({ ruleId: 'malformed-record', line, message: `line is not an OTLP container (no resourceSpans, scopeSpans or batches array): "${excerpt(JSON.stringify(value))}"` });
        return;
      }
      skippedNote(sink, line, otlpSpans(value, () => line, (span) => buffer.add(span)));
    });
    buffer.flush(input.file, sink);
  },
};

/** Jaeger JSON (query API, UI "download JSON"): `{"data":[{traceID, spans, processes}]}`. */
export const jaegerFormat: TraceFormat = {
  id: 'jaeger-json',
  description: 'Jaeger JSON trace exports ({"data":[{traceID, spans, processes}]})',
  detect(sample) {
    return isJaegerContainer(sample.document) || isJaegerContainer(sample.jsonLines[0]) || JAEGER_HEAD.test(headText(sample));
  },
  async parse(input, sink) {
    if (!(await isLineDelimited(input))) {
      await parseDocument(input, sink, isJaegerContainer, jaegerSpans, ['spanID'], 'a Jaeger JSON export');
      return;
    }
    const buffer = new TraceBuffer();
    await forEachJsonLine(input, sink, (value, line) => {
      if (!isJaegerContainer(value)) {
        sink.diagnostic({ ruleId: 'malformed-record', line, message: `line is not a Jaeger export (no data[] of traces): "${excerpt(JSON.stringify(value))}"` });
        return;
      }
      skippedNote(sink, line, jaegerSpans(value, () => line, (span) => buffer.add(span)));
    });
    buffer.flush(input.file, sink);
  },
};
