/** The yaml package's node kinds, passed in (it is loaded for a cassette only). */
export interface YamlKinds {
  isAlias(node: unknown): node is { source: string };
  isScalar(node: unknown): node is { range?: [number, number, number] | null; value: unknown };
  isCollection(node: unknown): node is { items: unknown[] };
  isPair(node: unknown): node is { key: unknown; value: unknown };
}

/** What reading `root` with its aliases expanded adds: bytes, or `cycle` when an alias names a node that holds it. */
export type AliasExpansion = { readonly kind: 'bytes'; readonly bytes: number } | { readonly kind: 'cycle' };

const PENDING = -1;

/**
 * The bytes the aliases under `root` add when it is read: each alias counts the size of
 * what it stands for (its anchored node's source, with the aliases inside that counted the
 * same way), so a 1 MB body aliased 1,000 times counts 1,000 MB. Measured on the parsed node
 * tree, never expanded: one pass over the document to resolve every alias (the yaml package
 * resolves one alias by walking the whole document, so a thousand aliases cost a thousand
 * walks), then each node's expanded size once (memoized, no recursion, any depth).
 */
export function aliasExpansion(root: unknown, contents: unknown, kinds: YamlKinds): AliasExpansion {
  const targets = aliasTargets(contents, kinds);
  const childrenOf = (n: unknown): unknown[] => {
    if (kinds.isAlias(n)) return [targets.get(n)];
    if (kinds.isPair(n)) return [n.key, n.value];
    if (kinds.isCollection(n)) return n.items;
    return [];
  };
  const full = new Map<unknown, number>();
  /** The size of `start` read with its aliases expanded, or null when an alias inside it names a node that holds it. */
  const sizeOf = (start: unknown): number | null => {
    const stack = [start];
    while (stack.length > 0) {
      const n = stack[stack.length - 1];
      const known = full.get(n);
      if (known !== undefined && known !== PENDING) {
        stack.pop();
        continue;
      }
      const kids = childrenOf(n).filter((kid) => kid !== null && kid !== undefined);
      if (known === undefined) {
        full.set(n, PENDING);
        for (const kid of kids) {
          const state = full.get(kid);
          if (state === PENDING) return null; // a node on the way down: the alias names a node that holds it
          if (state === undefined) stack.push(kid);
        }
        continue;
      }
      let size = kinds.isScalar(n) ? (n.range ? n.range[1] - n.range[0] : String(n.value).length) : 0;
      for (const kid of kids) size += full.get(kid)!;
      full.set(n, size);
      stack.pop();
    }
    return full.get(start) ?? 0;
  };
  let bytes = 0;
  for (const n of preorder(root, kinds)) {
    if (!kinds.isAlias(n)) continue;
    const target = targets.get(n);
    if (target === undefined) continue; // an unresolved alias: the parser reported it
    const size = sizeOf(target);
    if (size === null) return { kind: 'cycle' };
    bytes += size;
  }
  return { kind: 'bytes', bytes };
}

/** Every alias → the node it names: the last node with its anchor before it in document order (the YAML rule, the yaml package's order). */
function aliasTargets(contents: unknown, kinds: YamlKinds): Map<unknown, unknown> {
  const anchors = new Map<string, unknown>();
  const targets = new Map<unknown, unknown>();
  for (const n of preorder(contents, kinds)) {
    if (kinds.isAlias(n)) {
      const target = anchors.get(n.source);
      if (target !== undefined) targets.set(n, target);
      continue;
    }
    const anchor = (n as { anchor?: unknown }).anchor;
    if (typeof anchor === 'string') anchors.set(anchor, n);
  }
  return targets;
}

/** The nodes of `root`'s own tree (aliases not followed), parents before children, in document order. */
function* preorder(root: unknown, kinds: YamlKinds): Generator<unknown> {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop();
    if (n === null || n === undefined) continue;
    yield n;
    if (kinds.isAlias(n)) continue;
    const kids = kinds.isPair(n) ? [n.key, n.value] : kinds.isCollection(n) ? n.items : [];
    for (let i = kids.length - 1; i >= 0; i -= 1) stack.push(kids[i]);
  }
}
