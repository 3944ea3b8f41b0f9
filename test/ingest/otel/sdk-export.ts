import { context, trace, SpanKind, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type IdGenerator, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** Sequential ids, so that run ids (trace ids) and span ids in assertions are fixed. */
class CountingIds implements IdGenerator {
  private trace = 0;
  private span = 0;
  generateTraceId(): string {
    this.trace += 1;
    return this.trace.toString(16).padStart(32, '0');
  }
  generateSpanId(): string {
    this.span += 1;
    return this.span.toString(16).padStart(16, '0');
  }
}

/** A real tracer from the OpenTelemetry JS SDK, recording into memory. */
export function sdkTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ idGenerator: new CountingIds(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('agent-under-test', '1.0.0');
  /** Starts a span at `start` ms (under `parent` when given); the caller ends it with an explicit time. */
  const start = (name: string, startMs: number, attributes: Attributes, parent?: Span): Span => {
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    return tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: startMs, attributes }, ctx);
  };
  return { exporter, start, SpanStatusCode };
}

/** The OTLP JSON the collector's file exporter writes for one batch: one `{"resourceSpans":[…]}` line. */
export function otlpJsonLine(spans: ReadableSpan[]): string {
  return `${new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans))}\n`;
}

const SPAN_KINDS = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'];
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];

/**
 * The same request in the protobuf JSON mapping (what protobuf's JsonFormat /
 * MessageToJson write): bytes ids in base64, enums by name, int64 as strings.
 * The JS serializer has no such mode, so this rewrites its output field by field.
 */
export function toProtobufJson(line: string, options: { snakeCase?: boolean } = {}): string {
  // preserving_proto_field_name=True (Python) writes the .proto field names: resource_spans, span_id …
  const rename = (k: string) => (options.snakeCase ? k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : k);
  const walk = (value: unknown, key: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), walk(v, k)]));
    }
    if ((key === 'traceId' || key === 'spanId' || key === 'parentSpanId') && typeof value === 'string') return Buffer.from(value, 'hex').toString('base64');
    if (key === 'kind' && typeof value === 'number') return SPAN_KINDS[value];
    if (key === 'code' && typeof value === 'number') return STATUS_CODES[value];
    if ((key === 'intValue' || key.endsWith('UnixNano')) && (typeof value === 'number' || typeof value === 'string')) return String(value);
    return value;
  };
  return `${JSON.stringify(walk(JSON.parse(line), ''))}\n`;
}
