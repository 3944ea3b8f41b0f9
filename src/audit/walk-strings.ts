import { runMemo } from './memo.js';

/**
 * Every string inside a JSON value, with its path (`content[0].text`), so text
 * rules scan decoded values wherever a payload hides them: plain strings, JSON
 * fields, content arrays, and strings that are themselves JSON documents.
 */
export interface FoundString {
  readonly path: string;
  readonly text: string;
}

const MAX_DEPTH = 64;
const MAX_STRINGS = 10_000;

/**
 * The strings of `value`. Several rules walk the same result or arguments: the
 * strings of an object or array are kept for the run (a run memo) and handed out
 * again; callers must not change them.
 */
export function stringsOf(value: unknown): readonly FoundString[] {
  return value !== null && typeof value === 'object' ? walked.get(value) : walkAll(value);
}

const walked = runMemo(1 << 16, (value: object) => walkAll(value));

function walkAll(value: unknown): FoundString[] {
  const out: FoundString[] = [];
  walk(value, '', 0, out);
  return out;
}

/**
 * A path `stringsOf(value)` gave, as it reads with `value` under the field `root`:
 * `root.key…` below an object, `root[0]…` below an array, `root<json>…` inside a string.
 */
export function pathUnder(root: string, value: unknown, path: string): string {
  if (path === '') return root;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? `${root}.${path}` : root + path;
}

function walk(value: unknown, path: string, depth: number, out: FoundString[]): void {
  if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    out.push({ path, text: value });
    const trimmed = value.trimStart();
    // A string holding a JSON object or array (common for tool results): scan inside too.
    if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && value.length < 4 * 1024 * 1024) {
      try {
        walk(JSON.parse(value), `${path}<json>`, depth + 1, out);
      } catch {
        // not JSON: the string itself was scanned
      }
    }
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) walk(value[i], `${path}[${i}]`, depth + 1, out);
    return;
  }
  if (value !== null && typeof value === 'object') {
    // for-in over own keys: no key array per object (this walk runs on every payload).
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      walk((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, depth + 1, out);
    }
  }
}
