import { CanonicalError } from './jcs.js';
import { isLosslessNumber, type LosslessValue } from './lossless.js';

/**
 * The canonical form most Python harnesses hash:
 * `json.dumps(obj, sort_keys=True, separators=(",", ":"))` with its defaults,
 * that is ASCII-only output (`\uXXXX` in lowercase hex, astral characters as
 * surrogate pairs), keys sorted by code point, floats as Python's repr
 * (`1.0`, `1e+16`, `1e-05`) and integers exactly. NaN and infinities (which
 * Python would write as `NaN` / `Infinity`, not JSON) throw a CanonicalError.
 */

const SHORT_ESCAPES: Readonly<Record<number, string>> = { 0x22: '\\"', 0x5c: '\\\\', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x08: '\\b', 0x0c: '\\f' };

/** A string as Python's `json.dumps` writes it with `ensure_ascii=True`. */
export function pythonString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    const short = SHORT_ESCAPES[c];
    if (short !== undefined) out += short;
    else if (c >= 0x20 && c <= 0x7e) out += value[i];
    // Code units: an astral character comes out as its surrogate pair, as Python writes it.
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

/** Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pythonFloat(value: number, path = ''): string {
  if (!Number.isFinite(value)) throw new CanonicalError(`${value} has no JSON form`, path);
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  // toExponential() without digits gives the shortest digits that round-trip, as repr does.
  const [mantissa, expText] = Math.abs(value).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
}

/** Python's sort order for str keys: by code point (not UTF-16 code unit). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    i += ca > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/** A number lexeme as `json.loads` sees it: with `.`, `e` or `E` a float, otherwise an exact int. */
function pythonNumberText(text: string, path: string): string {
  if (/[.eE]/.test(text)) return pythonFloat(Number(text), path);
  return BigInt(text).toString();
}

/** Python form of a value from parseLossless (float/int distinction and big ints kept). */
export function pythonLossless(value: LosslessValue, path = ''): string {
  if (value === null || typeof value !== 'object') return python(value, path);
  if (Array.isArray(value)) return `[${value.map((item, i) => pythonLossless(item, `${path}[${i}]`)).join(',')}]`;
  if (isLosslessNumber(value)) return pythonNumberText(value.text, path);
  const entries = [...value.entries].sort((a, b) => compareCodePoints(a[0], b[0]));
  return `{${entries.map(([key, item]) => `${pythonString(key)}:${pythonLossless(item, `${path}.${key}`)}`).join(',')}}`;
}

/** Python form of a plain JavaScript value: integral numbers are ints, others floats. */
export function python(value: unknown, path = ''): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Number.isInteger(value)) return BigInt(value).toString();
      return pythonFloat(value, path);
    case 'bigint':
      return value.toString();
    case 'string':
      return pythonString(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item, i) => python(item, `${path}[${i}]`)).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort(compareCodePoints);
      return `{${keys.map((key) => `${pythonString(key)}:${python(obj[key], `${path}.${key}`)}`).join(',')}}`;
    }
    default:
      throw new CanonicalError(`a ${typeof value} is not JSON`, path);
  }
}
