/**
 * Every string inside a JSON value, with its path (`content[0].text`), so text
 * rules scan decoded values wherever a payload hides them: plain strings, JSON
 * fields, content arrays, and strings that are themselves JSON documents.
 */
export interface FoundString {
  readonly path: string;
  readonly text: string;
}

/** Called for each string of a value, in document order. */
export type StringVisitor = (path: string, text: string) => void;

const MAX_DEPTH = 64;
const MAX_STRINGS = 10_000;
/** Longest string read as a JSON document of its own. */
const MAX_INNER_JSON = 4 * 1024 * 1024;

/**
 * Visits the strings of `value` (at most 10,000, at most 64 levels down). Nothing is
 * kept and nothing is made per string but its path: the rules that scan every
 * payload of every run (secrets, stack traces) walk it themselves, which costs less
 * than keeping the walk for the run and handing it out again.
 */
export function forEachString(value: unknown, visit: StringVisitor): void {
  walk(value, '', 0, MAX_STRINGS, visit);
}

/** The strings of `value` as a list (for the rules that pick among them). */
export function stringsOf(value: unknown): FoundString[] {
  const out: FoundString[] = [];
  forEachString(value, (path, text) => out.push({ path, text }));
  return out;
}

/**
 * A path `forEachString(value)` gave, as it reads with `value` under the field `root`:
 * `root.key…` below an object, `root[0]…` below an array, `root<json>…` inside a string.
 */
export function pathUnder(root: string, value: unknown, path: string): string {
  if (path === '') return root;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? `${root}.${path}` : root + path;
}

/** Walks `value`; returns how many more strings may be visited. */
function walk(value: unknown, path: string, depth: number, left: number, visit: StringVisitor): number {
  if (left <= 0 || depth > MAX_DEPTH) return left;
  if (typeof value === 'string') {
    visit(path, value);
    left -= 1;
    // A string holding a JSON object or array (common for tool results): scan inside too.
    if (!opensJson(value) || value.length >= MAX_INNER_JSON) return left;
    let inner: unknown;
    try {
      inner = JSON.parse(value);
    } catch {
      return left; // not JSON: the string itself was scanned
    }
    return walk(inner, `${path}<json>`, depth + 1, left, visit);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) left = walk(value[i], `${path}[${i}]`, depth + 1, left, visit);
    return left;
  }
  if (value !== null && typeof value === 'object') {
    // for-in over own keys: no key array per object (this walk runs on every payload).
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      left = walk((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, depth + 1, left, visit);
    }
  }
  return left;
}

/**
 * Whether `text` can be a JSON object or array: its first character after JSON's white
 * space (space, tab, line feed, carriage return: all JSON.parse skips) opens one.
 */
function opensJson(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}
