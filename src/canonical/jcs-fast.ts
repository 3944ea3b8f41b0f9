import { sameKeyCount } from '../io/json-line.js';
import { sortCodeUnits } from './jcs.js';

/**
 * A fast way to the exact text `jcsLossless(parseLossless(text, maxDepth))` gives
 * for a JSON object, for the (common) records where it can prove the two agree:
 * V8's JSON.parse, a copy of every object with its members inserted in UTF-16
 * code-unit order of their keys, and V8's JSON.stringify of the copy. Returns
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
  const keys = { seen: 0 };
  let out: string;
  try {
    const copy = sortedCopy(value, 0, maxDepth, keys);
    if (copy === ASIDE || !sameKeyCount(text, keys.seen)) return undefined;
    out = JSON.stringify(copy);
  } catch {
    // Stack overflow on a deep record under a large maxDepth: the lossless path decides.
    return undefined;
  }
  return out.includes('\\ud') ? undefined : out;
}

/** What a copy gives back for a value the fast path does not handle: the lossless path decides. */
const ASIDE = Symbol('aside');

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A copy of a parsed object or array with every object's keys in code-unit order,
 * or ASIDE when a value below it is one the fast path does not handle. `keys.seen`
 * counts the keys of the objects copied (after JSON.parse's last-wins), for the
 * duplicate check.
 */
function sortedCopy(value: object, depth: number, maxDepth: number, keys: { seen: number }): object | typeof ASIDE {
  if (Array.isArray(value)) {
    const n = value.length;
    if (n > 0 && depth >= maxDepth) return ASIDE;
    const copy: unknown[] = [];
    for (let i = 0; i < n; i += 1) {
      const item = copyItem(value[i], depth, maxDepth, keys);
      if (item === ASIDE) return ASIDE;
      copy.push(item);
    }
    return copy;
  }
  const names = Object.keys(value);
  if (names.length === 0) return {};
  if (depth >= maxDepth) return ASIDE;
  keys.seen += names.length;
  sortCodeUnits(names);
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i]!;
    const first = name.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || name === '__proto__') return ASIDE;
    const item = copyItem(source[name], depth, maxDepth, keys);
    if (item === ASIDE) return ASIDE;
    copy[name] = item;
  }
  return copy;
}

/** One member or element: an object or array copied one level down, a number only within ±(2^53-1). */
function copyItem(item: unknown, depth: number, maxDepth: number, keys: { seen: number }): unknown {
  if (typeof item === 'object' && item !== null) return sortedCopy(item, depth + 1, maxDepth, keys);
  if (typeof item === 'number' && !(Math.abs(item) <= MAX_SAFE)) return ASIDE;
  return item;
}
