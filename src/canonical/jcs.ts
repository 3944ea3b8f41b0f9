import { isLosslessNumber, type LosslessValue } from './lossless.js';

/**
 * RFC 8785 JSON Canonicalization Scheme over parsed JSON values: object keys
 * sorted by UTF-16 code units, no whitespace, numbers and strings serialized
 * as ECMAScript's JSON.stringify does. Values JCS cannot represent (NaN,
 * infinities, lone surrogates, non-JSON types) throw a CanonicalError.
 */
export class CanonicalError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path === '' ? 'the top level' : path}`);
    this.name = 'CanonicalError';
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** JCS of a value from parseLossless: integers past 2^53 are refused rather than rounded. */
export function jcsLossless(value: LosslessValue, path = ''): string {
  if (value === null || typeof value !== 'object') return jcs(value, path);
  if (Array.isArray(value)) return `[${value.map((item, i) => jcsLossless(item, `${path}[${i}]`)).join(',')}]`;
  if (isLosslessNumber(value)) {
    const n = Number(value.text);
    if (!Number.isFinite(n)) throw new CanonicalError(`${value.text} is out of the range of a double`, path);
    if (/^-?\d+$/.test(value.text) && !Number.isSafeInteger(n)) {
      throw new CanonicalError(`integer ${value.text} is beyond 2^53 and would lose digits`, path);
    }
    return JSON.stringify(n);
  }
  const entries = [...value.entries].sort((a, b) => compareUtf16(a[0], b[0]));
  const parts: string[] = [];
  for (const [key, item] of entries) {
    if (LONE_SURROGATE.test(key)) throw new CanonicalError('a lone surrogate in a key has no canonical form', path);
    parts.push(`${JSON.stringify(key)}:${jcsLossless(item, `${path}.${key}`)}`);
  }
  return `{${parts.join(',')}}`;
}

export function jcs(value: unknown, path = ''): string {
  const fast = jcsByStringify(value);
  return fast !== undefined ? fast : jcsByParts(value, path);
}

/** JCS written piece by piece: handles every value, and says what is wrong with one it refuses. */
export function jcsByParts(value: unknown, path = ''): string {
  try {
    return encode(value);
  } catch (error) {
    if (error instanceof Unrepresentable) throw new CanonicalError(error.reason, path + error.path);
    throw error;
  }
}

/**
 * JCS of plain JSON data by one JSON.stringify: of the value itself when its keys
 * are already in code-unit order (a copy only of the objects that are not). The
 * output is `encode`'s, since both write strings and numbers as JSON.stringify does
 * and members in the order given; undefined (the caller writes it piece by piece)
 * for anything `sortedView` sets aside, for a lone surrogate (JSON.stringify escapes
 * it as `\udXXX`, its only reason to write `\ud`), or nesting past MAX_VIEW_DEPTH.
 */
export function jcsByStringify(value: unknown): string | undefined {
  const view = sortedView(value, { maxDepth: MAX_VIEW_DEPTH, maxMagnitude: Number.MAX_VALUE, keys: 0 });
  if (view === ASIDE) return undefined;
  const out = JSON.stringify(view);
  return out.includes('\\ud') ? undefined : out;
}

/** What `sortedView` gives back for a value JSON.stringify would not write as JCS does: the caller takes its slow path. */
export const ASIDE = Symbol('aside');
const MAX_VIEW_DEPTH = 100;

/** What `sortedView` accepts, and what it counts. */
export interface ViewLimits {
  /** A non-empty object or array may sit only above this depth (the value itself is depth 0). */
  readonly maxDepth: number;
  /** The largest magnitude a number may have (NaN and the infinities never pass). */
  readonly maxMagnitude: number;
  /** The keys of every object seen, added up (after JSON.parse's last-wins): for a duplicate-key check. */
  keys: number;
}

/**
 * `value` with every object's members inserted in code-unit order of their keys
 * (copying only the objects and arrays that must change), for JSON.stringify to
 * write as JCS; or ASIDE for what JSON.stringify would write otherwise or what is
 * not plain JSON data: a value that is not null, a boolean, a number within
 * `maxMagnitude`, a string, an array or an object with Object.prototype as its
 * prototype; a key that starts with a digit (JSON.stringify writes array-index keys
 * first) or is `__proto__` (not insertable as data); an array hole; nesting past
 * `maxDepth`. Shared by `jcsByStringify` and the seal's fast path (jcs-fast.ts).
 */
export function sortedView(value: unknown, limits: ViewLimits, depth = 0): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Math.abs(value) <= limits.maxMagnitude ? value : ASIDE;
    case 'object':
      break;
    default:
      return ASIDE;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    if (value.length > 0 && depth >= limits.maxDepth) return ASIDE;
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      const view = item === undefined ? ASIDE : sortedView(item, limits, depth + 1);
      if (view === ASIDE) return ASIDE;
      if (copy === null && view !== item) copy = value.slice(0, i);
      if (copy !== null) copy.push(view);
    }
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return ASIDE;
  const names = Object.keys(value);
  if (names.length === 0) return value;
  if (depth >= limits.maxDepth) return ASIDE;
  limits.keys += names.length;
  let sorted = true;
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i]!;
    const first = name.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || name === '__proto__') return ASIDE;
    if (i > 0 && !(names[i - 1]! < name)) sorted = false;
  }
  if (!sorted) sortCodeUnits(names);
  const source = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i]!;
    const item = source[name];
    const view = sortedView(item, limits, depth + 1);
    if (view === ASIDE) return ASIDE;
    if (copy === null && (view !== item || !sorted)) {
      copy = {};
      for (let j = 0; j < i; j += 1) copy[names[j]!] = source[names[j]!];
    }
    if (copy !== null) copy[name] = view;
  }
  return copy ?? value;
}

/**
 * Thrown inside `encode` and turned into a CanonicalError by `jcs`: the path of the
 * bad value is built only while the error unwinds, never for the values that are fine.
 */
class Unrepresentable {
  path = '';
  constructor(readonly reason: string) {}
}

function encode(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Unrepresentable(`${value} has no JSON form`);
      return JSON.stringify(value);
    case 'string':
      return encodeString(value, 'a lone surrogate has no canonical form');
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i += 1) {
          if (i > 0) out += ',';
          try {
            out += encode(value[i]);
          } catch (error) {
            throw within(error, `[${i}]`);
          }
        }
        return `${out}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = sortedKeys(obj);
      let out = '{';
      for (let i = 0; i < keys.length; i += 1) {
        const key = keys[i]!;
        if (i > 0) out += ',';
        out += encodeString(key, 'a lone surrogate in a key has no canonical form');
        out += ':';
        try {
          out += encode(obj[key]);
        } catch (error) {
          throw within(error, `.${key}`);
        }
      }
      return `${out}}`;
    }
    default:
      throw new Unrepresentable(`a ${typeof value} is not JSON`);
  }
}

/** The keys in code-unit order. */
function sortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  sortCodeUnits(keys);
  return keys;
}

/** Sorts keys in code-unit order, in place: small objects (most) by insertion, without the copy Array.sort makes. */
export function sortCodeUnits(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort(compareUtf16);
    return;
  }
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j -= 1;
    }
    keys[j + 1] = key;
  }
}

function within(error: unknown, step: string): unknown {
  if (error instanceof Unrepresentable) error.path = step + error.path;
  return error;
}

/**
 * JSON.stringify writes a lone surrogate as a `\udXXX` escape and has no other
 * reason to write `\ud`: the exact test runs only on strings whose output has it.
 */
function encodeString(text: string, reason: string): string {
  const out = JSON.stringify(text);
  if (out.includes('\\ud') && LONE_SURROGATE.test(text)) throw new Unrepresentable(reason);
  return out;
}

/** Code-unit order, as RFC 8785 §3.2.3 requires (not locale order, not code-point order). */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
