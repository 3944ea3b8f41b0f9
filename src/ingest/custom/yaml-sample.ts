import type * as Yaml from 'yaml';

let yaml: typeof Yaml | null = null;

/** Loads the yaml package for detection (a `layout: yaml` format's detect runs synchronously on the sample). */
export async function loadYaml(): Promise<void> {
  yaml ??= await import(/* webpackMode: "eager" */ 'yaml');
}

const cache = new WeakMap<Buffer, unknown[]>();

/**
 * The YAML documents the detection sample's head holds whole (a document cut by the
 * sample's end does not parse and is left out), for a `layout: yaml` format's detect.
 * Aliases are expanded at most yaml's default 100 times (toJS's maxAliasCount).
 */
export function yamlHeadValues(head: Buffer): unknown[] {
  if (yaml === null) return [];
  const known = cache.get(head);
  if (known) return known;
  const values: unknown[] = [];
  try {
    const docs = yaml.parseAllDocuments(head.toString('utf8'), { uniqueKeys: false });
    for (const doc of Array.isArray(docs) ? docs : []) {
      if (doc.errors.length > 0) break;
      values.push(doc.toJS() as unknown);
    }
  } catch {
    // a head yaml cannot read: nothing detected from it
  }
  cache.set(head, values);
  return values;
}
