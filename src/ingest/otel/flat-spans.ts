import { isObject, own, type JsonObject } from '../fields.js';
import { normalizeId, type OtelEvent, type OtelSpan } from './span.js';

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
  return isObject(context) && typeof own(context, 'span_id') === 'string' && typeof own(context, 'trace_id') === 'string';
}

/** The span in the container-independent shape; null when it has no usable span id. */
export function flatSpan(raw: JsonObject, lineOf: (rawSpanId: unknown) => number): OtelSpan | null {
  const context = own(raw, 'context');
  if (!isObject(context)) return null;
  const rawSpanId = own(context, 'span_id');
  const spanId = hexId(rawSpanId);
  if (spanId === null) return null;
  const status = own(raw, 'status');
  const code = isObject(status) ? own(status, 'status_code') : undefined;
  const description = isObject(status) ? own(status, 'description') : undefined;
  const events: OtelEvent[] = [];
  const rawEvents = own(raw, 'events');
  for (const event of Array.isArray(rawEvents) ? rawEvents : []) {
    if (!isObject(event)) continue;
    const name = own(event, 'name');
    events.push({ name: typeof name === 'string' ? name : '', attrs: attributeMap(own(event, 'attributes')) });
  }
  return {
    traceId: hexId(own(context, 'trace_id')),
    spanId,
    parentId: hexId(own(raw, 'parent_id')),
    name: own(raw, 'name') as string,
    startMs: isoMs(own(raw, 'start_time')),
    endMs: isoMs(own(raw, 'end_time')),
    attrs: attributeMap(own(raw, 'attributes')),
    events,
    status: code === 'ERROR' || code === 'StatusCode.ERROR' ? 'error' : code === 'OK' || code === 'StatusCode.OK' ? 'ok' : 'unset',
    statusMessage: typeof description === 'string' && description !== '' ? description : null,
    line: lineOf(rawSpanId),
  };
}

/** `0x`-prefixed (or bare) hex ids, lowercased. */
function hexId(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return normalizeId(value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value);
}

/** ISO-8601 times with microseconds: the fraction beyond milliseconds is kept (for ordering). */
function isoMs(value: unknown): number | null {
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
