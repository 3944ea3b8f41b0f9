import { isObject, own, type JsonObject } from '../facts/fields.js';

/** A span event (OTLP `events[]`, Jaeger `logs[]`) with its attributes read once. */
export interface OtelEvent {
  readonly name: string;
  readonly attrs: ReadonlyMap<string, unknown>;
}

/**
 * One span, container-independent: ids in lowercase hex, times in epoch ms
 * (fractions kept, for ordering), attributes decoded into one Map.
 */
export interface OtelSpan {
  /** Null when the span has none (Tempo's single-trace responses may leave it out): the file is then one run. */
  readonly traceId: string | null;
  readonly spanId: string;
  readonly parentId: string | null;
  readonly name: string;
  readonly startMs: number | null;
  readonly endMs: number | null;
  readonly attrs: ReadonlyMap<string, unknown>;
  readonly events: readonly OtelEvent[];
  readonly status: 'unset' | 'ok' | 'error';
  readonly statusMessage: string | null;
  /** 1-based line of the file where this span (or its batch line) starts. */
  readonly line: number;
}

/** Own property under its camelCase (OTLP JSON) or snake_case (protobuf field name) key. */
export function field(obj: JsonObject, camel: string, snake?: string): unknown {
  const v = own(obj, camel);
  return v !== undefined || snake === undefined ? v : own(obj, snake);
}

export function arrayField(obj: JsonObject, camel: string, snake?: string): unknown[] {
  const v = field(obj, camel, snake);
  return Array.isArray(v) ? v : [];
}

const HEX_ID = /^[0-9a-fA-F]+$/;
const BASE64_ID = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Trace and span ids: hex as the OTLP file exporter writes them, or base64 as
 * the protobuf JSON mapping writes bytes fields. Returns lowercase hex, or null.
 */
export function normalizeId(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if ((value.length === 32 || value.length === 16) && HEX_ID.test(value)) return value.toLowerCase();
  if ((value.length === 24 || value.length === 12) && BASE64_ID.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 16 || bytes.length === 8) return bytes.toString('hex');
  }
  return HEX_ID.test(value) ? value.toLowerCase() : value;
}

/** Nanoseconds (number or decimal string) to epoch ms; 0 and absent mean unknown. */
export function nanosToMs(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return null;
  return n / 1e6;
}

/** Decodes an OTLP AnyValue (`stringValue`, `intValue` as number or string, arrays, kvlists …). */
export function anyValue(value: unknown, depth = 0): unknown {
  if (!isObject(value) || depth > 64) return undefined;
  const s = field(value, 'stringValue', 'string_value');
  if (typeof s === 'string') return s;
  const b = field(value, 'boolValue', 'bool_value');
  if (typeof b === 'boolean') return b;
  const i = field(value, 'intValue', 'int_value');
  if (i !== undefined) return typeof i === 'string' && Number.isFinite(Number(i)) ? Number(i) : i;
  const d = field(value, 'doubleValue', 'double_value');
  if (d !== undefined) return typeof d === 'string' ? Number(d) : d;
  const arr = field(value, 'arrayValue', 'array_value');
  if (isObject(arr)) return arrayField(arr, 'values').map((v) => anyValue(v, depth + 1));
  const kv = field(value, 'kvlistValue', 'kvlist_value');
  if (isObject(kv)) return Object.fromEntries(keyValues(own(kv, 'values'), depth + 1));
  const bytes = field(value, 'bytesValue', 'bytes_value');
  if (typeof bytes === 'string') return bytes;
  return undefined;
}

/** OTLP `[{key, value: AnyValue}]` into a Map, in order (a later duplicate takes the value, as collectors do). */
function keyValues(list: unknown, depth: number): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (!isObject(item)) continue;
    const key = own(item, 'key');
    if (typeof key === 'string') out.set(key, anyValue(own(item, 'value'), depth));
  }
  return out;
}

/** OTLP `attributes: [{key, value: AnyValue}]` into a Map (later duplicates win, as collectors do). */
export function otlpAttributes(list: unknown): Map<string, unknown> {
  return keyValues(list, 0);
}

/** Jaeger `tags: [{key, type, value}]` into a Map. */
export function jaegerTags(list: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (!isObject(item)) continue;
    const key = own(item, 'key');
    if (typeof key === 'string') out.set(key, own(item, 'value'));
  }
  return out;
}

/** A string attribute, or null. */
export function attrStr(attrs: ReadonlyMap<string, unknown>, key: string): string | null {
  const v = attrs.get(key);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

/** Attribute values that are JSON text (tool arguments, message lists) parsed; anything else as is. */
export function jsonish(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trimStart();
  if (t[0] !== '{' && t[0] !== '[') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
