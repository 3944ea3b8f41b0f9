import { CanonicalError } from './errors.js';
import { isLosslessNumber, type LosslessNumber, type LosslessObject } from './lossless.js';
import { compareCodePoints } from './order.js';

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

/** A number lexeme as `json.loads` sees it: with `.`, `e` or `E` a float, otherwise an exact int. */
function pythonNumberText(text: string, path: string): string {
  if (/[.eE]/.test(text)) return pythonFloat(Number(text), path);
  return BigInt(text).toString();
}

/**
 * The one Python-form encoder. `lossless` says what `value` is: a plain JavaScript
 * value (integral numbers are ints, others floats), or a value from parseLossless
 * (a lexeme with `.`, `e` or `E` is a float, others exact ints, big ones included).
 */
export function python(value: unknown, lossless: boolean, path = ''): string {
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
      if (Array.isArray(value)) return `[${value.map((item, i) => python(item, lossless, `${path}[${i}]`)).join(',')}]`;
      if (lossless) return isLosslessNumber(value as LosslessNumber) ? pythonNumberText((value as LosslessNumber).text, path) : losslessObject(value as LosslessObject, path);
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort(compareCodePoints);
      return `{${keys.map((key) => `${pythonString(key)}:${python(obj[key], false, `${path}.${key}`)}`).join(',')}}`;
    }
    default:
      throw new CanonicalError(`a ${typeof value} is not JSON`, path);
  }
}

function losslessObject(value: LosslessObject, path: string): string {
  const entries = [...value.entries].sort((a, b) => compareCodePoints(a[0], b[0]));
  return `{${entries.map(([key, item]) => `${pythonString(key)}:${python(item, true, `${path}.${key}`)}`).join(',')}}`;
}
