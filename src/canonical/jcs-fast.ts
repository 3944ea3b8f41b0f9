import { sameKeyCount } from '../io/json-line.js';
import { ASIDE, sortedView, type ViewLimits } from './jcs.js';

/**
 * A fast way to the exact text `jcsLossless(parseLossless(text, maxDepth))` gives
 * for a JSON object, for the (common) records where it can prove the two agree:
 * V8's JSON.parse, a view of it with every object's members inserted in UTF-16
 * code-unit order of their keys (`sortedView`, the one jcsByStringify uses), and
 * V8's JSON.stringify of the view. Returns
 * undefined when it cannot prove it; the caller then takes the lossless path,
 * which also produces every refusal and error message, so those stay the same.
 *
 * Why the result is the same, case by case (anything else returns undefined):
 * - JSON.parse and parseLossless accept the same grammar, except that
 *   parseLossless refuses duplicate keys (JSON.parse keeps the last; here the
 *   keys written in the text are counted against the keys parsed) and values
 *   nested deeper than `maxDepth` (the record is depth 0, its members depth 1).
 * - A number: jcsLossless writes JSON.stringify(Number(lexeme)), and JSON.parse
 *   reads a lexeme as Number() does. It refuses non-finite values and integer
 *   lexemes past 2^53; a magnitude at most 2^53-1 proves neither happened (a
 *   lexeme whose magnitude rounds to that range cannot be an integer past it).
 * - A string: both write JSON.stringify's escaping; jcsLossless refuses a lone
 *   surrogate, which JSON.stringify writes as a `\udXXX` escape, so output with
 *   `\ud` in it is left to the lossless path (a `\\ud` there only costs time).
 * - Keys: JSON.stringify writes an object's members in insertion order, except
 *   that array-index keys come first, in numeric order, and `__proto__` cannot
 *   be inserted as plain data: keys that start with a digit or are `__proto__`
 *   are left to the lossless path.
 * - A record that is not an object, or has one of `refused` as a top-level key,
 *   is refused by the caller: left to the lossless path.
 */
export function jcsRecordFast(text: string, maxDepth: number, refused: readonly string[] = []): string | undefined {
  if (!(maxDepth >= 0)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const key of refused) if (Object.hasOwn(value, key)) return undefined;
  const limits: ViewLimits = { maxDepth, maxMagnitude: Number.MAX_SAFE_INTEGER, keys: 0 };
  let out: string;
  try {
    const view = sortedView(value, limits);
    if (view === ASIDE || !sameKeyCount(text, limits.keys)) return undefined;
    out = JSON.stringify(view);
  } catch {
    // Stack overflow on a deep record under a large maxDepth: the lossless path decides.
    return undefined;
  }
  return out.includes('\\ud') ? undefined : out;
}
