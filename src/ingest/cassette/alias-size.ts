import type { Document, Node } from 'yaml';

/** The yaml package's node kinds, passed in (it is loaded for a cassette only). */
export interface YamlKinds {
  isAlias(node: unknown): node is { resolve(doc: Document): unknown };
  isScalar(node: unknown): node is { range?: [number, number, number] | null; value: unknown };
  isCollection(node: unknown): node is { items: unknown[] };
  isPair(node: unknown): node is { key: unknown; value: unknown };
}

/**
 * The bytes the aliases under `node` add when it is read: each alias counts the size of
 * what it stands for (its anchored node's source, with the aliases inside that counted the
 * same way), so a 1 MB body aliased 1,000 times counts 1,000 MB. Sizes are memoized per
 * node: a nested alias bomb is measured in one pass over its nodes, never expanded.
 */
export function aliasBytes(node: unknown, doc: Document, kinds: YamlKinds): number {
  const full = new Map<unknown, number>();
  const added = new Map<unknown, number>();
  /** The size of `n` read, aliases expanded. */
  const sizeOf = (n: unknown, depth: number): number => {
    if (n === null || n === undefined || depth > 1000) return 0;
    const known = full.get(n);
    if (known !== undefined) return known;
    full.set(n, 0); // an alias cycle counts nothing more (the yaml package refuses it)
    let size: number;
    if (kinds.isAlias(n)) size = sizeOf(n.resolve(doc), depth + 1);
    else if (kinds.isScalar(n)) size = n.range ? n.range[1] - n.range[0] : String(n.value).length;
    else if (kinds.isPair(n)) size = sizeOf(n.key, depth + 1) + sizeOf(n.value, depth + 1);
    else if (kinds.isCollection(n)) size = n.items.reduce<number>((sum, item) => sum + sizeOf(item, depth + 1), 0);
    else size = 0;
    full.set(n, size);
    return size;
  };
  /** What the aliases under `n` add beyond its source. */
  const extraOf = (n: unknown, depth: number): number => {
    if (n === null || n === undefined || depth > 1000) return 0;
    const known = added.get(n);
    if (known !== undefined) return known;
    added.set(n, 0);
    let extra = 0;
    if (kinds.isAlias(n)) extra = sizeOf(n, depth + 1);
    else if (kinds.isPair(n)) extra = extraOf(n.key, depth + 1) + extraOf(n.value, depth + 1);
    else if (kinds.isCollection(n)) extra = n.items.reduce<number>((sum, item) => sum + extraOf(item, depth + 1), 0);
    added.set(n, extra);
    return extra;
  };
  return extraOf(node as Node, 0);
}
