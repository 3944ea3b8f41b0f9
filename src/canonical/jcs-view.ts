import { sameKeyCount } from '../io/json-line.js';
import { sortCodeUnits } from './order.js';

/**
 * The fast paths of the JCS encoder (jcs.ts): V8's JSON.stringify of a view of the
 * value with every object's members in code-unit order. Internal to src/canonical/;
 * callers use canonicalize() (index.ts), and the tests prove each path equal to the
 * piece-by-piece encoder (test/canonical/jcs-stringify.test.ts, test/seal/fast-path.test.ts).
 */

/**
 * JCS of plain JSON data by one JSON.stringify: of the value itself when its keys
 * are already in code-unit order (a copy only of the objects that are not). The
 * output is the piece-by-piece encoder's, since both write strings and numbers as JSON.stringify does
 * and members in the order given; undefined (the caller writes it piece by piece)
 * for anything `sortedView` sets aside, for a lone surrogate (JSON.stringify escapes
 * it as `\udXXX`, its only reason to write `\ud`), or nesting past MAX_VIEW_DEPTH.
 */
export function stringifyView(value: unknown): string | undefined {
  const view = sortedView(value, { maxDepth: MAX_VIEW_DEPTH, maxMagnitude: Number.MAX_VALUE, keys: 0 });
  if (view === ASIDE) return undefined;
  const out = JSON.stringify(view);
  return out.includes('\\ud') ? undefined : out;
}

/** What `sortedView` gives back for a value JSON.stringify would not write as JCS does: the caller takes its slow path. */
const ASIDE = Symbol('aside');
const MAX_VIEW_DEPTH = 100;

/** What `sortedView` accepts, and what it counts. */
interface ViewLimits {
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
 * `maxDepth`. Shared by `stringifyView` and `jcsTextFast`.
 */
function sortedView(value: unknown, limits: ViewLimits, depth = 0): unknown {
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
 * A fast way to the exact text ``jcs(parseLossless(text, maxDepth), true)`` gives
 * for a JSON object, for the (common) records where it can prove the two agree:
 * V8's JSON.parse, a view of it with every object's members inserted in UTF-16
 * code-unit order of their keys (`sortedView`), and
 * V8's JSON.stringify of the view. Returns
 * undefined when it cannot prove it; the caller then takes the lossless path,
 * which also produces every refusal and error message, so those stay the same.
 *
 * Why the result is the same, case by case (anything else returns undefined):
 * - JSON.parse and parseLossless accept the same grammar, except that
 *   parseLossless refuses duplicate keys (JSON.parse keeps the last; here the
 *   keys written in the text are counted against the keys parsed) and values
 *   nested deeper than `maxDepth` (the record is depth 0, its members depth 1).
 * - A number: the lossless encoder writes JSON.stringify(Number(lexeme)), and JSON.parse
 *   reads a lexeme as Number() does. It refuses non-finite values and integer
 *   lexemes past 2^53; a magnitude at most 2^53-1 proves neither happened (a
 *   lexeme whose magnitude rounds to that range cannot be an integer past it).
 * - A string: both write JSON.stringify's escaping; the lossless encoder refuses a lone
 *   surrogate, which JSON.stringify writes as a `\udXXX` escape, so output with
 *   `\ud` in it is left to the lossless path (a `\\ud` there only costs time).
 * - Keys: JSON.stringify writes an object's members in insertion order, except
 *   that array-index keys come first, in numeric order, and `__proto__` cannot
 *   be inserted as plain data: keys that start with a digit or are `__proto__`
 *   are left to the lossless path.
 * - A record that is not an object, or has one of `refused` as a top-level key,
 *   is refused by the caller: left to the lossless path.
 */
export function jcsTextFast(text: string, maxDepth: number, refused: readonly string[] = []): string | undefined {
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
