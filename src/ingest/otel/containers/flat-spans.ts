import { isObject, own, type JsonObject } from '../../facts/fields.js';
import { nanosToMs, normalizeId, type OtelEvent, type OtelSpan } from '../span.js';

/**
 * A span as the OpenTelemetry Python SDK's `ReadableSpan.to_json()` writes it
 * (ConsoleSpanExporter, and the files test suites save):
 * `{name, context: {trace_id, span_id}, parent_id, start_time, end_time,
 * status: {status_code}, attributes: {…}, events: [{name, timestamp, attributes}]}`
 * with `0x`-prefixed hex ids and ISO-8601 times.
 */
export function isFlatSpan(value: unknown): value is JsonObject {
  if (!isObject(value) || typeof own(value, 'name') !== 'string') return false;
  const context = own(value, 'context');
  return isObject(context) && isIdValue(own(context, 'span_id')) && isIdValue(own(context, 'trace_id'));
}

/** A span or trace id as written: hex text, or (any-agent) the id as a JSON integer. */
function isIdValue(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value) && value >= 0);
}

/** `"trace_id": 2734…` / `"span_id": 1734…`: ids written as JSON integers (any-agent), most past 2^53. */
const INTEGER_ID = /("(trace_id|span_id)"\s*:\s*)(\d+)(?=\s*[,}])/g;

/**
 * The span of a streamed item, with ids written as JSON integers kept exact: JSON.parse
 * rounds integers past 2^53, so they are rewritten as the `0x` hex text of their digits
 * (32 digits for a trace id, 16 for a span id) and the item parsed again.
 */
export function exactIdSpan(text: string, value: unknown): unknown {
  INTEGER_ID.lastIndex = 0;
  if (!INTEGER_ID.test(text)) return value;
  const hex = text.replace(INTEGER_ID, (_all, key: string, name: string, digits: string) => `${key}"0x${BigInt(digits).toString(16).padStart(name === 'trace_id' ? 32 : 16, '0')}"`);
  try {
    return JSON.parse(hex) as unknown;
  } catch {
    return value;
  }
}

/** The span in the container-independent shape; null when it has no usable span id. */
export function flatSpan(raw: JsonObject, lineOf: (rawSpanId: unknown) => number): OtelSpan | null {
  const context = own(raw, 'context');
  if (!isObject(context)) return null;
  const rawSpanId = own(context, 'span_id');
  const spanId = hexId(rawSpanId);
  if (spanId === null) return null;
  const status = own(raw, 'status');
  // The SDK's `status: {status_code, description}`; Phoenix's span JSON: `status_code` and `status_message` on the span.
  const code = statusCode(isObject(status) ? own(status, 'status_code') : own(raw, 'status_code'));
  const description = isObject(status) ? own(status, 'description') : own(raw, 'status_message');
  const events: OtelEvent[] = [];
  const rawEvents = own(raw, 'events');
  for (const event of Array.isArray(rawEvents) ? rawEvents : []) {
    if (!isObject(event)) continue;
    const name = own(event, 'name');
    events.push({ name: typeof name === 'string' ? name : '', attrs: attributeMap(own(event, 'attributes')) });
  }
  const parent = own(raw, 'parent');
  const attrs = attributeMap(own(raw, 'attributes'));
  // Phoenix writes the OpenInference span kind beside the attributes (`span_kind`), not among them.
  const kind = own(raw, 'span_kind');
  if (typeof kind === 'string' && !attrs.has('openinference.span.kind')) attrs.set('openinference.span.kind', kind);
  return {
    traceId: hexId(own(context, 'trace_id')),
    spanId,
    // The SDK's `parent_id`; any-agent's `parent: {trace_id, span_id}` (a span context).
    parentId: hexId(own(raw, 'parent_id')) ?? (isObject(parent) ? hexId(own(parent, 'span_id')) : null),
    name: own(raw, 'name') as string,
    startMs: timeMs(own(raw, 'start_time')),
    endMs: timeMs(own(raw, 'end_time')),
    attrs,
    events,
    status: code === 'ERROR' ? 'error' : code === 'OK' ? 'ok' : 'unset',
    statusMessage: typeof description === 'string' && description !== '' ? description : null,
    line: lineOf(rawSpanId),
  };
}

/** `ERROR`, `StatusCode.ERROR`, `error` (any-agent) → `ERROR`; likewise `OK`. */
function statusCode(value: unknown): string | null {
  return typeof value === 'string' ? value.replace(/^StatusCode\./, '').toUpperCase() : null;
}

/** `0x`-prefixed (or bare) hex ids, lowercased; an id written as a safe JSON integer in hex. */
function hexId(value: unknown): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value.toString(16).padStart(16, '0') : Number.isFinite(value) ? String(value) : null;
  if (typeof value !== 'string' || value === '') return null;
  return normalizeId(value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value);
}

/** ISO-8601 times with microseconds (the fraction beyond milliseconds kept, for ordering), or epoch nanoseconds (any-agent). */
function timeMs(value: unknown): number | null {
  if (typeof value === 'number') return nanosToMs(value);
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  const fraction = /\.(\d{4,9})/.exec(value);
  return fraction ? ms + Number(`0.${fraction[1]!.slice(3)}`) : ms;
}

/** Attributes as a plain object (keys from data: a Map, never an object lookup). */
function attributeMap(value: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isObject(value)) return out;
  for (const key of Object.keys(value)) out.set(key, value[key]);
  return out;
}

/**
 * A bare OpenInference attribute map: the attributes of one span without the span around
 * them (`{"openinference.span.kind": "LLM", "llm.input_messages.0.message.role": …}`), as
 * OpenInference's own test fixtures keep them.
 */
export function isAttributeMap(value: unknown): value is JsonObject {
  return isObject(value) && typeof own(value, 'openinference.span.kind') === 'string' && !Object.hasOwn(value, 'context');
}

/** The attribute map as a span of its own: no ids (the file is one run), placed on the line where it begins. */
export function attributeSpan(raw: JsonObject, line: number): OtelSpan {
  return {
    traceId: null,
    spanId: `attributes@${line}`,
    parentId: null,
    name: own(raw, 'openinference.span.kind') as string,
    startMs: null,
    endMs: null,
    attrs: attributeMap(raw),
    events: [],
    status: 'unset',
    statusMessage: null,
    line,
  };
}
