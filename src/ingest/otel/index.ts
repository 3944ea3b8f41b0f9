import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { isJaegerContainer, jaegerSpans } from './jaeger.js';
import { isOtlpContainer, otlpSpans } from './otlp.js';
import { readContainers } from './read-containers.js';

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
  detect(sample) {
    return isOtlpContainer(sample.document) || isOtlpContainer(sample.jsonLines[0]) || OTLP_HEAD.test(headText(sample)) ? Evidence.signature : Evidence.none;
  },
  parse(input, sink) {
    return readContainers(input, sink, {
      accepts: isOtlpContainer,
      read: otlpSpans,
      idKeys: ['spanId', 'span_id'],
      what: 'an OTLP container (no resourceSpans, scopeSpans or batches array)',
    });
  },
};

/** Jaeger JSON (query API, UI "download JSON"): `{"data":[{traceID, spans, processes}]}`. */
export const jaegerFormat: TraceFormat = {
  id: 'jaeger-json',
  description: 'Jaeger JSON trace exports ({"data":[{traceID, spans, processes}]})',
  detect(sample) {
    return isJaegerContainer(sample.document) || isJaegerContainer(sample.jsonLines[0]) || JAEGER_HEAD.test(headText(sample)) ? Evidence.signature : Evidence.none;
  },
  parse(input, sink) {
    return readContainers(input, sink, {
      accepts: isJaegerContainer,
      read: jaegerSpans,
      idKeys: ['spanID'],
      what: 'a Jaeger export (no data[] of traces)',
    });
  },
};
