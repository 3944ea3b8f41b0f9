import { compareUtf16 } from '../../canonical/index.js';
import { normalizeHash } from './hashes.js';

/** A catalog as compared between branches: tool name → schema hash (null when unknown). */
export type CatalogSnapshot = ReadonlyMap<string, string | null>;

export interface CatalogComparison {
  /** Names in head but not in base, sorted. */
  readonly added: string[];
  /** Names in base but not in head, sorted. */
  readonly removed: string[];
  /** Names in both whose schema hashes are both known and differ, sorted. */
  readonly schemaChanged: string[];
}

/**
 * Compares two catalogs (e.g. the base branch's and the head's) by name and
 * schema hash. Pure; a name whose schema hash is unknown on either side cannot
 * count as changed. Lists are sorted by UTF-16 code unit for stable output.
 */
export function compareCatalogs(base: CatalogSnapshot, head: CatalogSnapshot): CatalogComparison {
  const added: string[] = [];
  const removed: string[] = [];
  const schemaChanged: string[] = [];
  for (const [name, hash] of head) {
    if (!base.has(name)) added.push(name);
    else {
      const before = base.get(name) ?? null;
      if (before !== null && hash !== null && normalizeHash(before) !== normalizeHash(hash)) schemaChanged.push(name);
    }
  }
  for (const name of base.keys()) if (!head.has(name)) removed.push(name);
  return { added: added.sort(compareUtf16), removed: removed.sort(compareUtf16), schemaChanged: schemaChanged.sort(compareUtf16) };
}
