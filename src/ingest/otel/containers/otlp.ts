import { isObject, own, type JsonObject } from '../../facts/fields.js';
import { arrayField, field, nanosToMs, normalizeId, otlpAttributes, type OtelEvent, type OtelSpan } from '../span.js';

/**
 * OTLP JSON containers. One reader for every spelling seen in the wild:
 * - the collector's file exporter: `{"resourceSpans":[{"scopeSpans":[{"spans":[…]}]}]}`,
 *   hex ids, integer enums, nanoseconds as strings or numbers;
 * - the protobuf JSON mapping: base64 ids, enum names (`SPAN_KIND_SERVER`,
 *   `STATUS_CODE_ERROR`), int64 `intValue` as a string, optionally snake_case field names;
 * - Tempo's API: `{"batches":[…]}`, older exports with `instrumentationLibrarySpans`,
 *   v2 `{"trace":{"resourceSpans":[…]}}`;
 * - a bare ResourceSpans per line: `{"resource":…,"scopeSpans":[…]}`.
 */
export function isOtlpContainer(value: unknown): value is JsonObject {
  if (!isObject(value)) return false;
  if (Array.isArray(own(value, 'resourceSpans')) || Array.isArray(own(value, 'resource_spans')) || Array.isArray(own(value, 'batches'))) return true;
  if (isBareResourceSpans(value)) return true;
  // Tempo's v2 API wraps the request: {"trace": {"resourceSpans": […]}}.
  const trace = own(value, 'trace');
  return isObject(trace) && Array.isArray(own(trace, 'resourceSpans'));
}

const SCOPE_LISTS = ['scopeSpans', 'scope_spans', 'instrumentationLibrarySpans', 'instrumentation_library_spans'];

/** The spans of a document, as lists a streaming read walks (every spelling otlpSpans reads). */
export const OTLP_SPAN_LISTS: readonly string[] = ['$.resourceSpans[*]', '$.resource_spans[*]', '$.batches[*]', '$.trace.resourceSpans[*]', '$']
  .flatMap((root) => SCOPE_LISTS.map((scope) => `${root}.${scope}[*].spans[*]`));

/**
 * The lists around the spans, which a streaming read leaves out of the document's rest
 * (their resources and scopes are not read: one per batch, they grew with the file).
 */
export const OTLP_HOLLOW_LISTS: readonly string[] = ['$.resourceSpans[*]', '$.resource_spans[*]', '$.batches[*]', '$.trace.resourceSpans[*]', ...SCOPE_LISTS.map((scope) => `$.${scope}[*]`)];

/** One ResourceSpans object on its own (some tools write one per line instead of a whole request). */
function isBareResourceSpans(value: JsonObject): boolean {
  return Array.isArray(own(value, 'scopeSpans')) || Array.isArray(own(value, 'scope_spans')) || Array.isArray(own(value, 'instrumentationLibrarySpans'));
}

/** Every span of one container, in document order; `lineOf` places each span in the file. */
export function otlpSpans(container: JsonObject, lineOf: (rawSpanId: unknown) => number, onSpan: (span: OtelSpan) => void): number {
  let skipped = 0;
  const wrapped = own(container, 'trace');
  const root = isObject(wrapped) && Array.isArray(own(wrapped, 'resourceSpans')) ? wrapped : container;
  const batches = isBareResourceSpans(root) ? [root] : [...arrayField(root, 'resourceSpans', 'resource_spans'), ...arrayField(root, 'batches')];
  for (const batch of batches) {
    if (!isObject(batch)) continue;
    const scopes = [
      ...arrayField(batch, 'scopeSpans', 'scope_spans'),
      ...arrayField(batch, 'instrumentationLibrarySpans', 'instrumentation_library_spans'),
    ];
    for (const scope of scopes) {
      if (!isObject(scope)) continue;
      for (const raw of arrayField(scope, 'spans')) {
        const span = isObject(raw) ? otlpSpan(raw, lineOf) : null;
        if (span) onSpan(span);
        else skipped += 1;
      }
    }
  }
  return skipped;
}

export function otlpSpan(raw: JsonObject, lineOf: (rawSpanId: unknown) => number): OtelSpan | null {
  const rawSpanId = field(raw, 'spanId', 'span_id');
  const traceId = normalizeId(field(raw, 'traceId', 'trace_id'));
  const spanId = normalizeId(rawSpanId);
  if (spanId === null) return null;
  const name = own(raw, 'name');
  const status = field(raw, 'status');
  const events: OtelEvent[] = [];
  for (const event of arrayField(raw, 'events')) {
    if (!isObject(event)) continue;
    const eventName = own(event, 'name');
    events.push({ name: typeof eventName === 'string' ? eventName : '', attrs: otlpAttributes(own(event, 'attributes')) });
  }
  const message = isObject(status) ? own(status, 'message') : undefined;
  return {
    traceId,
    spanId,
    parentId: normalizeId(field(raw, 'parentSpanId', 'parent_span_id')),
    name: typeof name === 'string' ? name : '',
    startMs: nanosToMs(field(raw, 'startTimeUnixNano', 'start_time_unix_nano')),
    endMs: nanosToMs(field(raw, 'endTimeUnixNano', 'end_time_unix_nano')),
    attrs: otlpAttributes(own(raw, 'attributes')),
    events,
    status: isObject(status) ? statusOf(own(status, 'code')) : 'unset',
    statusMessage: typeof message === 'string' && message !== '' ? message : null,
    line: lineOf(rawSpanId),
  };
}

/** Status code 0/1/2 or its enum name. */
function statusOf(code: unknown): OtelSpan['status'] {
  if (code === 2 || code === 'STATUS_CODE_ERROR' || code === '2') return 'error';
  if (code === 1 || code === 'STATUS_CODE_OK' || code === '1') return 'ok';
  return 'unset';
}
