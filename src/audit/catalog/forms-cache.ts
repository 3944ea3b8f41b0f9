import { isDeepStrictEqual } from 'node:util';

// Kept before the cache starts over (a file of ever-new schemas gains nothing from it):
// distinct values, and characters of their JSON texts (a larger value is never kept).
const MAX_ENTRIES = 512;
const MAX_CHARS = 1 << 20;

/**
 * What was computed from a JSON value (hash forms), by that value: the same schema or
 * name list in every run of a file is hashed once. A value is found by its JSON text
 * and confirmed equal (`1e400` parses to Infinity, which has no canonical form but is
 * written `null` as `null` is), so a hit is exactly what computing it again gives.
 * Values JSON cannot write are never kept.
 */
export class FormsCache<T> {
  private readonly entries = new Map<string, { readonly value: unknown; readonly forms: T }>();
  private chars = 0;

  get(value: unknown, compute: () => T): T {
    const key = textOf(value);
    if (key === null || key.length > MAX_CHARS) return compute();
    const hit = this.entries.get(key);
    if (hit !== undefined && isDeepStrictEqual(hit.value, value)) return hit.forms;
    const forms = compute();
    if (this.entries.size >= MAX_ENTRIES || this.chars + key.length > MAX_CHARS) {
      this.entries.clear();
      this.chars = 0;
    }
    this.entries.set(key, { value, forms });
    this.chars += key.length;
    return forms;
  }
}

function textOf(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}
