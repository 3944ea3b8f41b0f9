/** Why a line is not a record: not JSON, a duplicate key, nested too deep, or more keys than limits.max-record-keys. */
export class JsonLineError {
  constructor(
    readonly code: 'not-json' | 'duplicate-key' | 'too-deep' | 'too-many-keys',
    readonly reason: string,
  ) {}
}

// Every string literal in order; group 1 is set when the string is an object key.
// Outside strings JSON has no `"`, so matching left to right stays aligned on string starts.
const STRING_RE = /"(?:[^"\\]|\\.)*"(\s*:)?/gs;

/**
 * Parses one line as JSON with the checks JSON.parse does not make: duplicate
 * keys (reported, never silently last-wins), a nesting depth cap and a cap on the
 * keys of one record (`maxKeys`, limits.max-record-keys). Returns the value, or a
 * JsonLineError (which JSON.parse can never produce): no result object per line,
 * since this runs on every line of every file.
 */
export function parseJsonLine(text: string, maxDepth: number, maxKeys = Number.POSITIVE_INFINITY): unknown {
  // A key takes at least 4 characters (`"":0` and a separator): only a longer line can pass the cap,
  // and it is counted on its text before JSON.parse builds it (one scan, no allocation).
  if (text.length > maxKeys * 4) {
    const written = countTextKeys(text);
    if (written > maxKeys) return tooManyKeys(written, maxKeys);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof RangeError) return new JsonLineError('too-deep', `nesting deeper than the parser can go (limit ${maxDepth})`);
    return new JsonLineError('not-json', `not JSON: ${jsonErrorText(error)}`);
  }
  if (value === null || typeof value !== 'object') return value;
  const keys = countKeys(value, maxDepth);
  if (keys < 0) return new JsonLineError('too-deep', `JSON nesting deeper than ${maxDepth} levels`);
  // A key spaced from its colon in a way the text count missed is still caught here.
  if (keys > maxKeys) return tooManyKeys(keys, maxKeys);
  if (keys === 0 || sameKeyCount(text, keys)) return value;
  const duplicate = findDuplicateKey(text);
  return new JsonLineError('duplicate-key', `duplicate object key ${JSON.stringify(duplicate ?? '?')}`);
}

/**
 * Whether a text JSON.parse accepted writes exactly `keys` object keys, the number
 * of keys in what it parsed to: JSON.parse keeps the last of a repeated key, so a
 * text that writes more has a duplicate key.
 */
export function sameKeyCount(text: string, keys: number): boolean {
  // Fast path: when no quote is followed by white space and then a colon, every key is
  // written with its colon right after its closing quote (`":`), as compact JSON and
  // Python's default spacing (`": "`, `", "`) both write it. Then each key gives one
  // `":` whose quote is not escaped, and the only other such `":` is the opening quote of
  // a string that starts with a colon: counting them can only over-count, never
  // under-count, so an equal count proves there is no duplicate key. Otherwise (a key
  // spaced before its colon, or a value that writes `"` + white space + `:`, or a count
  // that differs) the keys are counted exactly.
  if (!SPACED_COLON.test(text) && countQuoteColons(text) === keys) return true;
  return countTextKeys(text) === keys;
}

/** A quote, white space, a colon: a key spaced before its colon (or such text inside a value). */
const SPACED_COLON = /"\s+:/;

/**
 * How many times `":` occurs with a quote that is not escaped (not after an odd run of
 * backslashes: JSON text inside a string, as tool arguments carry it, writes `\":`).
 * Found colon by colon: a one-character search is several times faster than a two-character one.
 */
function countQuoteColons(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) {
    if (text.charCodeAt(at - 1) !== 0x22) continue;
    let backslashes = 0;
    while (text.charCodeAt(at - 2 - backslashes) === 0x5c) backslashes += 1;
    if ((backslashes & 1) === 0) count += 1;
  }
  return count;
}

/**
 * The object keys a JSON text writes: string literals followed (after JSON white space)
 * by `:`. Outside strings JSON has no `"`, so jumping from quote to quote stays aligned on
 * string starts; a quote ends its string unless an odd run of backslashes precedes it.
 * No regular expression and no allocation: this runs on every line the fast count cannot settle.
 */
export function countTextKeys(text: string): number {
  let keys = 0;
  for (let start = text.indexOf('"'); start !== -1; ) {
    let end = start + 1;
    for (;;) {
      end = text.indexOf('"', end);
      if (end === -1) return keys;
      let backslashes = 0;
      while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes += 1;
      if ((backslashes & 1) === 0) break;
      end += 1;
    }
    let next = end + 1;
    let c = text.charCodeAt(next);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++next);
    if (c === 0x3a) keys += 1;
    start = text.indexOf('"', next);
  }
  return keys;
}

/**
 * Why a value read by another parser (YAML) is not a record JSON lines would accept:
 * nested deeper than `maxDepth`, or more than `maxKeys` object keys at every level
 * together; null when it is within both.
 */
export function shapeProblem(value: unknown, maxDepth: number, maxKeys = Number.POSITIVE_INFINITY): JsonLineError | null {
  if (value === null || typeof value !== 'object') return null;
  const keys = countKeys(value, maxDepth);
  if (keys < 0) return new JsonLineError('too-deep', `nesting deeper than ${maxDepth} levels`);
  return keys > maxKeys ? tooManyKeys(keys, maxKeys) : null;
}

/** Deepest limit walked by recursion; a larger configured limit uses a work list (no stack overflow). */
const RECURSION_LIMIT = 1000;

/** Keys in `root` and below it, or -1 when it nests deeper than `maxDepth`. */
function countKeys(root: object, maxDepth: number): number {
  return maxDepth > RECURSION_LIMIT ? countKeysWithList(root, maxDepth) : countBelow(root, 1, maxDepth);
}

function countKeysWithList(root: object, maxDepth: number): number {
  let keys = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) return -1;
    if (Array.isArray(node)) {
      for (const item of node) if (item !== null && typeof item === 'object') stack.push([item, depth + 1]);
    } else {
      for (const key in node as Record<string, unknown>) {
        keys += 1;
        const item = (node as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') stack.push([item, depth + 1]);
      }
    }
  }
  return keys;
}

/** Keys in `node` and below it, or -1 past `maxDepth` (recursion, no work list: no allocation per node). */
function countBelow(node: object, depth: number, maxDepth: number): number {
  if (depth > maxDepth) return -1;
  let keys = 0;
  if (Array.isArray(node)) {
    for (const item of node) {
      if (item === null || typeof item !== 'object') continue;
      const below = countBelow(item as object, depth + 1, maxDepth);
      if (below < 0) return -1;
      keys += below;
    }
    return keys;
  }
  for (const key in node as Record<string, unknown>) {
    keys += 1;
    const item = (node as Record<string, unknown>)[key];
    if (item === null || typeof item !== 'object') continue;
    const below = countBelow(item as object, depth + 1, maxDepth);
    if (below < 0) return -1;
    keys += below;
  }
  return keys;
}

/** Slow path, only after the fast count saw a difference: name the first repeated key. */
function findDuplicateKey(text: string): string | null {
  const scopes: Array<Set<string> | null> = [];
  STRING_RE.lastIndex = 0;
  let last = 0;
  for (let m = STRING_RE.exec(text); m !== null; m = STRING_RE.exec(text)) {
    for (let i = last; i < m.index; i += 1) {
      const c = text[i];
      if (c === '{') scopes.push(new Set());
      else if (c === '[') scopes.push(null);
      else if (c === '}' || c === ']') scopes.pop();
    }
    last = STRING_RE.lastIndex;
    if (m[1] !== undefined) {
      const key = JSON.parse(m[0].slice(0, m[0].lastIndexOf('"') + 1)) as string;
      const scope = scopes[scopes.length - 1];
      if (scope) {
        if (scope.has(key)) return key;
        scope.add(key);
      }
    }
  }
  return null;
}

function tooManyKeys(keys: number, maxKeys: number): JsonLineError {
  return new JsonLineError('too-many-keys', `record has ${keys} object keys, more than the limit of ${maxKeys} keys (limits.max-record-keys); it was not read`);
}

function jsonErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // V8 quotes a slice of the input in its message; keep only the position part.
  const at = /position (\d+)/.exec(message);
  if (/Unexpected end of JSON input/.test(message)) return 'the record ends early';
  return at ? `unexpected token at position ${at[1]}` : 'invalid syntax';
}
