/**
 * Small readers for untrusted JSON fields: each returns the typed value or
 * null, never throws, never trusts the prototype chain.
 */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * An own property of a parsed JSON object. JSON values are never functions and
 * every inherited member of Object.prototype is one (but `__proto__`, checked
 * directly), so a non-function value read by name is the object's own.
 */
export function own(obj: JsonObject, key: string): unknown {
  if (key === '__proto__') return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
  const value = obj[key];
  return typeof value === 'function' ? undefined : value;
}

export function str(obj: JsonObject, key: string): string | null {
  return strValue(own(obj, key));
}

/** A string, or a number rendered as a string (ids are often numeric). */
export function idOf(obj: JsonObject, key: string): string | null {
  return idValue(own(obj, key));
}

export function num(obj: JsonObject, key: string): number | null {
  return numValue(own(obj, key));
}

export function int(obj: JsonObject, key: string): number | null {
  return intValue(own(obj, key));
}

// The same readers over a value already read. The hot parsers read fixed field names
// with `obj['name']` (a property load the engine caches per place), which equals
// `own(obj, 'name')` for every name that is not a member of Object.prototype.

export function strValue(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function idValue(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

export function numValue(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

export function intValue(v: unknown): number | null {
  const n = numValue(v);
  return n !== null && Number.isInteger(n) ? n : null;
}

export function bool(obj: JsonObject, key: string): boolean | null {
  const v = own(obj, key);
  return typeof v === 'boolean' ? v : null;
}

export function strList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') return null;
    out.push(item);
  }
  return out;
}

/**
 * Timestamps to milliseconds: ISO-8601 strings; numbers ≥ 1e11 are epoch ms,
 * numbers ≥ 1e8 are epoch seconds (fractions kept to the ms), smaller numbers
 * are run-relative milliseconds.
 */
export function toMillis(value: unknown): number | null {
  if (typeof value === 'string') {
    if (/^\d+(\.\d+)?$/.test(value)) return toMillis(Number(value));
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  if (value >= 1e11) return Math.round(value);
  if (value >= 1e8) return Math.round(value * 1000);
  return value;
}
