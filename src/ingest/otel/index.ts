import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { isObject, own } from '../facts/fields.js';
import { isJaegerContainer, JAEGER_SPAN_LISTS, jaegerSpan, jaegerSpans } from './containers/jaeger.js';
import { isOtlpContainer, OTLP_HOLLOW_LISTS, OTLP_SPAN_LISTS, otlpSpan, otlpSpans } from './containers/otlp.js';
import { isAttributeMap, isFlatSpan } from './containers/flat-spans.js';
import { readFlatSpans, readSpanList } from './containers/read-flat-spans.js';
import { TraceBuffer } from './trace-buffer.js';
import { readContainers } from './containers/read-containers.js';

const OTLP_HEAD = /^\s*\{\s*("(resourceSpans|resource_spans|batches)"\s*:\s*\[|"trace"\s*:\s*\{\s*"resourceSpans")/;
const JAEGER_HEAD = /^\s*\{\s*"data"\s*:\s*\[\s*\{\s*"traceID"\s*:/;

/** The first bytes, for documents too large for the sample to parse: their first key decides. */
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
  endsRuns: true,
  detect(sample) {
    return isOtlpContainer(sample.document) || isOtlpContainer(sample.jsonLines[0]) || OTLP_HEAD.test(headText(sample)) ? Evidence.signature : Evidence.none;
  },
  parse(input, sink) {
    return readContainers(input, sink, {
      accepts: isOtlpContainer,
      read: otlpSpans,
      spanLists: OTLP_SPAN_LISTS,
      hollowLists: OTLP_HOLLOW_LISTS,
      readSpan: (element, lineOf) => (isObject(element.value) ? otlpSpan(element.value, lineOf) : null),
      idKeys: ['spanId', 'span_id'],
      what: 'an OTLP container (no resourceSpans, scopeSpans or batches array)',
    });
  },
};

/** Jaeger JSON (query API, UI "download JSON"): `{"data":[{traceID, spans, processes}]}`. */
export const jaegerFormat: TraceFormat = {
  id: 'jaeger-json',
  description: 'Jaeger JSON trace exports ({"data":[{traceID, spans, processes}]})',
  endsRuns: true,
  detect(sample) {
    return isJaegerContainer(sample.document) || isJaegerContainer(sample.jsonLines[0]) || JAEGER_HEAD.test(headText(sample)) ? Evidence.signature : Evidence.none;
  },
  parse(input, sink) {
    return readContainers(input, sink, {
      accepts: isJaegerContainer,
      read: jaegerSpans,
      spanLists: JAEGER_SPAN_LISTS,
      readSpan: (element, lineOf) => {
        const raw = element.value;
        if (!isObject(raw)) return null;
        // A span without its own traceID takes its trace's (the document before the span holds it).
        const ownTraceId = own(raw, 'traceID');
        return jaegerSpan(raw, ownTraceId === undefined ? traceIdAround(element.head(), element.path[1]) : undefined, lineOf);
      },
      idKeys: ['spanID'],
      what: 'a Jaeger export (no data[] of traces)',
    });
  },
};

/** The opening of an SDK-written span: `{"name": "…", "context": {"trace_id":` (in a list or not). */
const FLAT_HEAD = /^\s*\[?\s*\{\s*"name"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"context"\s*:\s*\{\s*"trace_id"\s*:/;

/** A JSON list of SDK-written spans, one such span (or list) per line, or pretty-printed spans one after another. */
export function isFlatSpanFile(sample: DetectSample): boolean {
  const doc = sample.document;
  if (Array.isArray(doc)) return doc.length > 0 && isFlatSpan(doc[0]);
  if (isFlatSpan(doc) || isAttributeMap(doc)) return true;
  const first = sample.jsonLines[0];
  if (isFlatSpan(first) || isAttributeMap(first) || (Array.isArray(first) && first.length > 0 && isFlatSpan(first[0]))) return true;
  // Spans printed one after another (not one document), or a list too large to parse for detection.
  return doc === undefined && FLAT_HEAD.test(sample.head.subarray(0, 4096).toString('utf8'));
}

/**
 * Flat span dumps: what the OpenTelemetry Python SDK's `span.to_json()` writes
 * (a JSON list of spans, or one span per line), without an OTLP container. The
 * attribute conventions are the same as for OTLP; a run is a trace id.
 */
export const otelSpansFormat: TraceFormat = {
  id: 'otel-spans',
  description: 'Flat OpenTelemetry span dumps (the Python SDK span.to_json() shape, JSON list or JSONL)',
  endsRuns: true,
  detect: (sample) => (isFlatSpanFile(sample) ? Evidence.signature : Evidence.none),
  parse: readFlatSpans,
};

/** The opening of an any-agent trace too large to parse for detection: `{"spans": [{"name": …`. */
const ANY_AGENT_HEAD = /^\s*\{\s*"spans"\s*:\s*\[\s*\{\s*"name"\s*:/;

/** any-agent's `AgentTrace`: `{spans: [SDK-shaped spans], final_output}`: `final_output` is its signature, the spans list alone its structure. */
export function anyAgentEvidence(sample: DetectSample): number {
  const doc = sample.document;
  if (doc === undefined) return ANY_AGENT_HEAD.test(headText(sample)) ? Evidence.structure : Evidence.none;
  if (!isObject(doc)) return Evidence.none;
  const spans = own(doc, 'spans');
  if (!Array.isArray(spans) || spans.length === 0 || !isFlatSpan(spans[0])) return Evidence.none;
  return Object.hasOwn(doc, 'final_output') ? Evidence.signature : Evidence.structure;
}

/**
 * any-agent (mozilla-ai) traces, `AgentTrace.model_dump_json()`: `{spans, final_output}`, each span
 * the SDK shape with integer ids (`context.trace_id`), `parent` as a span context and times in
 * epoch nanoseconds. Read by the flat-span reader; its attributes by the any-agent convention (any-agent.ts).
 */
export const anyAgentFormat: TraceFormat = {
  id: 'any-agent',
  description: 'any-agent trace JSON ({"spans": [...], "final_output": ...})',
  endsRuns: true,
  detect: anyAgentEvidence,
  async parse(input, sink) {
    const buffer = new TraceBuffer(input.file, sink, input.limits);
    const read = await readSpanList(input, sink, buffer, '$.spans[*]');
    buffer.flush();
    if (read !== null && !(isObject(read.rest) && Array.isArray(own(read.rest, 'spans')))) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'not an any-agent trace (no spans list)' });
    }
  },
};

/** `data[i].traceID` of the document around a streamed Jaeger span. */
function traceIdAround(doc: unknown, index: unknown): unknown {
  const data = isObject(doc) ? own(doc, 'data') : undefined;
  const trace: unknown = Array.isArray(data) && typeof index === 'number' ? data[index] : undefined;
  return isObject(trace) ? own(trace, 'traceID') : undefined;
}
