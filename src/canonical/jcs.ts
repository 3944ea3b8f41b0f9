import { CanonicalError } from './errors.js';
import { stringifyView } from './jcs-view.js';
import { isLosslessNumber, type LosslessNumber, type LosslessObject } from './lossless.js';
import { compareUtf16, sortCodeUnits } from './order.js';

/**
 * RFC 8785 JSON Canonicalization Scheme: object keys sorted by UTF-16 code units,
 * no whitespace, numbers and strings serialized as ECMAScript's JSON.stringify does.
 * Values JCS cannot represent (NaN, infinities, lone surrogates, non-JSON types,
 * integer lexemes past 2^53) throw a CanonicalError.
 *
 * The one JCS encoder. `lossless` says what `value` is: a plain JavaScript value, or
 * a value from parseLossless (number lexemes and member order kept). Plain data
 * first tries one JSON.stringify of a sorted view (jcs-view.ts), which gives the
 * same text whenever it gives one (test/canonical/jcs-stringify.test.ts proves it);
 * everything else is written piece by piece.
 */
export function jcs(value: unknown, lossless: boolean): string {
  if (!lossless) {
    const fast = stringifyView(value);
    if (fast !== undefined) return fast;
  }
  return jcsPieceByPiece(value, lossless);
}

/** JCS written piece by piece: handles every value, and says what is wrong with one it refuses (exported for the tests). */
export function jcsPieceByPiece(value: unknown, lossless: boolean): string {
  try {
    return encode(value, lossless);
  } catch (error) {
    if (error instanceof Unrepresentable) throw new CanonicalError(error.reason, error.path);
    throw error;
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Thrown inside `encode` and turned into a CanonicalError by `jcs`: the path of the
 * bad value is built only while the error unwinds, never for the values that are fine.
 */
class Unrepresentable {
  path = '';
  constructor(readonly reason: string) {}
}

function encode(value: unknown, lossless: boolean): string {
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
            out += encode(value[i], lossless);
          } catch (error) {
            throw within(error, `[${i}]`);
          }
        }
        return `${out}]`;
      }
      if (lossless) return isLosslessNumber(value as LosslessNumber) ? losslessNumber(value as LosslessNumber) : losslessObject(value as LosslessObject);
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      sortCodeUnits(keys);
      let out = '{';
      for (let i = 0; i < keys.length; i += 1) {
        const key = keys[i]!;
        if (i > 0) out += ',';
        out += encodeString(key, 'a lone surrogate in a key has no canonical form');
        out += ':';
        try {
          out += encode(obj[key], lossless);
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

/** A number lexeme as JCS writes it: integers past 2^53 are refused rather than rounded. */
function losslessNumber(value: LosslessNumber): string {
  const n = Number(value.text);
  if (!Number.isFinite(n)) throw new Unrepresentable(`${value.text} is out of the range of a double`);
  if (/^-?\d+$/.test(value.text) && !Number.isSafeInteger(n)) throw new Unrepresentable(`integer ${value.text} is beyond 2^53 and would lose digits`);
  return JSON.stringify(n);
}

/** A parseLossless object: its (unique) keys in code-unit order. */
function losslessObject(value: LosslessObject): string {
  const entries = [...value.entries].sort((a, b) => compareUtf16(a[0], b[0]));
  let out = '{';
  for (let i = 0; i < entries.length; i += 1) {
    const [key, item] = entries[i]!;
    if (i > 0) out += ',';
    out += encodeString(key, 'a lone surrogate in a key has no canonical form');
    out += ':';
    try {
      out += encode(item, true);
    } catch (error) {
      throw within(error, `.${key}`);
    }
  }
  return `${out}}`;
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
