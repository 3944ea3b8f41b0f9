import { isObject, own, type JsonObject } from '../../facts/fields.js';
import { normalizeId, jaegerTags, type OtelEvent, type OtelSpan } from '../span.js';

/** Jaeger's query API / UI export: `{"data":[{"traceID","spans":[…],"processes":{…}}]}`. */
export function isJaegerContainer(value: unknown): value is JsonObject {
  if (!isObject(value)) return false;
  const data = own(value, 'data');
  if (!Array.isArray(data) || data.length === 0) return false;
  const first: unknown = data[0];
  return isObject(first) && Array.isArray(own(first, 'spans')) && (typeof own(first, 'traceID') === 'string' || isObject(own(first, 'processes')));
}

/** The spans of an export, as the list a streaming read walks. */
export const JAEGER_SPAN_LISTS: readonly string[] = ['$.data[*].spans[*]'];

/** Every span of every trace in `data`, in document order. Times are microseconds. */
export function jaegerSpans(container: JsonObject, lineOf: (rawSpanId: unknown) => number, onSpan: (span: OtelSpan) => void): number {
  let skipped = 0;
  const data = own(container, 'data');
  for (const trace of Array.isArray(data) ? data : []) {
    if (!isObject(trace)) continue;
    const spans = own(trace, 'spans');
    for (const raw of Array.isArray(spans) ? spans : []) {
      const span = isObject(raw) ? jaegerSpan(raw, own(trace, 'traceID'), lineOf) : null;
      if (span) onSpan(span);
      else skipped += 1;
    }
  }
  return skipped;
}

export function jaegerSpan(raw: JsonObject, traceIdOfTrace: unknown, lineOf: (rawSpanId: unknown) => number): OtelSpan | null {
  const traceId = normalizeId(own(raw, 'traceID') ?? traceIdOfTrace);
  const rawSpanId = own(raw, 'spanID');
  const spanId = normalizeId(rawSpanId);
  if (spanId === null) return null;
  const tags = jaegerTags(own(raw, 'tags'));
  const start = micros(own(raw, 'startTime'));
  const duration = micros(own(raw, 'duration'));
  const events: OtelEvent[] = [];
  const logs = own(raw, 'logs');
  for (const log of Array.isArray(logs) ? logs : []) {
    if (!isObject(log)) continue;
    const fields = jaegerTags(own(log, 'fields'));
    const name = fields.get('event');
    events.push({ name: typeof name === 'string' ? name : '', attrs: fields });
  }
  const statusCode = tags.get('otel.status_code');
  const description = tags.get('otel.status_description');
  return {
    traceId,
    spanId,
    parentId: parentOf(raw),
    name: typeof own(raw, 'operationName') === 'string' ? (own(raw, 'operationName') as string) : '',
    startMs: start,
    endMs: start !== null && duration !== null ? start + duration : null,
    attrs: tags,
    events,
    status: statusCode === 'ERROR' || tags.get('error') === true || tags.get('error') === 'true' ? 'error' : statusCode === 'OK' ? 'ok' : 'unset',
    statusMessage: typeof description === 'string' && description !== '' ? description : null,
    line: lineOf(rawSpanId),
  };
}

/** The CHILD_OF reference (or the first reference, or a `parentSpanID` field). */
function parentOf(raw: JsonObject): string | null {
  const refs = own(raw, 'references');
  if (Array.isArray(refs)) {
    const parent = refs.find((r) => isObject(r) && own(r, 'refType') === 'CHILD_OF') ?? refs[0];
    if (isObject(parent)) return normalizeId(own(parent, 'spanID'));
  }
  return normalizeId(own(raw, 'parentSpanID'));
}

function micros(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value / 1000 : null;
}
