/**
 * Small readers for untrusted JSON fields: each returns the typed value or
 * null, never throws, never trusts the prototype chain.
 */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * An own property of a parsed JSON object, or undefined: `Object.hasOwn` for every
 * name, so `constructor`, `toString` or `__proto__` never read what Object.prototype has.
 */
export function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

// The typed readers load `obj[key]` directly (the fast load) and keep only a string,
// finite number or boolean. That is an own value for every name: what an object inherits
// from Object.prototype is a function, or for `__proto__` an object
// (test/ingest/fields.test.ts checks every name Object.prototype has).

export function str(obj: JsonObject, key: string): string | null {
  const v = obj[key];
  return typeof v === 'string' ? v : null;
}

/** A string, or a number rendered as a string (ids are often numeric). */
export function idOf(obj: JsonObject, key: string): string | null {
  return asId(obj[key]);
}

/** A finite number, or a string that is one (`"12.5"`). */
export function num(obj: JsonObject, key: string): number | null {
  return asNumber(obj[key]);
}

export function int(obj: JsonObject, key: string): number | null {
  const n = asNumber(obj[key]);
  return n !== null && Number.isInteger(n) ? n : null;
}

export function bool(obj: JsonObject, key: string): boolean | null {
  const v = obj[key];
  return typeof v === 'boolean' ? v : null;
}

/** The ids of a value that is an id or a list of them (`idOf` of each); null when one is not an id. */
export function idItems(value: unknown): string[] | null {
  const out: string[] = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    const id = asId(item);
    if (id === null) return null;
    out.push(id);
  }
  return out;
}

function asId(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
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
    const utc = isoUtcMillis(value);
    if (utc !== null) return utc;
    if (/^\d+(\.\d+)?$/.test(value)) return toMillis(Number(value));
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  if (value >= 1e11) return Math.round(value);
  if (value >= 1e8) return Math.round(value * 1000);
  return value;
}

const digit = (text: string, at: number): number => text.charCodeAt(at) - 0x30;
const digits = (text: string, at: number, n: number): number => {
  let v = 0;
  for (let i = at; i < at + n; i += 1) {
    const d = digit(text, i);
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
};

/**
 * `2026-01-01T00:00:00.000Z`, the form exporters write most (Langfuse's every
 * observation), read without Date.parse; null for any other string, and for a
 * value Date.parse treats apart (a year before 1000, a day past the 28th, hour 24),
 * which then goes to Date.parse as before.
 */
function isoUtcMillis(text: string): number | null {
  if (text.length !== 24 || text.charCodeAt(23) !== 0x5a || text.charCodeAt(4) !== 0x2d || text.charCodeAt(7) !== 0x2d || text.charCodeAt(10) !== 0x54) return null;
  if (text.charCodeAt(13) !== 0x3a || text.charCodeAt(16) !== 0x3a || text.charCodeAt(19) !== 0x2e) return null;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const ms = digits(text, 20, 3);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 28 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}
