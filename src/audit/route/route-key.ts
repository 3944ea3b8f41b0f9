/**
 * Which thread owns a line of a routed file: the hash of its run id, found by a
 * byte search for the run key (`"run_id"`) with no parse. A line the search cannot
 * place with certainty (the key nested or absent, a value with escapes, a number)
 * is parsed here instead: the fallback, counted. Both give the thread of
 * `ownerOf(idOf(record, key))`, the run id the parser gives the line's records.
 */
import { idOf, isObject } from '../../ingest/facts/fields.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** The owner of a run id (null: the '' run) among `threads`: FNV-1a of its UTF-8 bytes. */
export function ownerOf(runId: string | null, threads: number): number {
  const id = runId ?? '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    const c = id.charCodeAt(i);
    if (c >= 0x80) return ownerOfBytes(Buffer.from(id, 'utf8'), 0, Buffer.byteLength(id, 'utf8'), threads);
    hash = Math.imul(hash ^ c, 0x01000193);
  }
  return (hash >>> 0) % threads;
}

function ownerOfBytes(bytes: Uint8Array, start: number, end: number, threads: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i += 1) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return (hash >>> 0) % threads;
}

export class RouteKey {
  /** `"run_id"` as bytes. */
  readonly #needle: Buffer;
  /** Lines placed by a parse on the routing thread. */
  fallbacks = 0;
  /** The buffer last searched, and where in it the key next occurs from there (-1: nowhere after). */
  #searched: Buffer | null = null;
  #next = -1;

  constructor(
    readonly key: string,
    readonly threads: number,
  ) {
    this.#needle = Buffer.from(JSON.stringify(key), 'utf8');
  }

  /** The bytes of `bytes` may change before the next `owner` call (the caller reuses its chunk): search them anew. */
  forget(): void {
    this.#searched = null;
  }

  /** The thread of the line `bytes[start, end)`; lines come in order within a buffer. */
  owner(bytes: Buffer, start: number, end: number): number {
    const fast = this.#search(bytes, start, end);
    if (fast >= 0) return fast;
    this.fallbacks += 1;
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8', start, end));
    } catch {
      return ownerOf(null, this.threads);
    }
    const id = isObject(value) ? idOf(value, this.key) : null;
    return ownerOf(id, this.threads);
  }

  /** The owner from the bytes alone, or -1: the key must be a top-level key and its value a string without escapes. */
  #search(bytes: Buffer, start: number, end: number): number {
    const at = this.#occurrence(bytes, start);
    if (at === -1 || at + this.#needle.length > end) return -1;
    if (!topLevel(bytes, start, at)) return -1;
    let i = at + this.#needle.length;
    while (i < end && isSpace(bytes[i]!)) i += 1;
    if (bytes[i] !== COLON) return -1;
    i += 1;
    while (i < end && isSpace(bytes[i]!)) i += 1;
    if (bytes[i] !== QUOTE) return -1;
    const from = i + 1;
    for (let j = from; j < end; j += 1) {
      const c = bytes[j]!;
      if (c === QUOTE) {
        // A second occurrence of the key would be a duplicate key (the line is malformed, on any thread) or nested.
        return ownerOfBytes(bytes, from, j, this.threads);
      }
      if (c === BACKSLASH || c < 0x20) return -1;
    }
    return -1;
  }

  /**
   * Where the key next occurs in `bytes` from `start` on, or -1. The buffer is searched
   * forward once per occurrence, not once per line (no view of each line is made):
   * an occurrence past this line, or none, holds for the lines before it too.
   */
  #occurrence(bytes: Buffer, start: number): number {
    if (this.#searched !== bytes || (this.#next !== -1 && this.#next < start)) {
      this.#searched = bytes;
      this.#next = bytes.indexOf(this.#needle, start);
    }
    return this.#next;
  }
}

/** True when `at` is outside every string and directly inside the line's outer object. */
function topLevel(bytes: Buffer, start: number, at: number): boolean {
  let depth = 0;
  let inString = false;
  let i = start;
  while (i < at && isSpace(bytes[i]!)) i += 1;
  if (bytes[i] !== 0x7b) return false;
  for (; i < at; i += 1) {
    const c = bytes[i]!;
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return !inString && depth === 1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}
