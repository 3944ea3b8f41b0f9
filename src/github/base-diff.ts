import type { Report } from '../report/schema.js';

/**
 * The Action's view of "what changed against the base branch": catalog
 * hashes added and removed, and the change in finding counts per rule.
 * (Minimal; the catalog helper's compareCatalogs adds tools and schemas.)
 */
export interface BaselineDiff {
  readonly catalogsAdded: string[];
  readonly catalogsRemoved: string[];
  /** rule id → head count − base count, only rules whose count changed. */
  readonly findingDelta: Array<{ ruleId: string; base: number; head: number }>;
  readonly changed: boolean;
}

export function diffAgainstBaseline(base: Report, head: Report): BaselineDiff {
  const catalogs = (r: Report) => new Set(r.runs.map((run) => run.catalogSha256).filter((c): c is string => c !== null));
  const b = catalogs(base);
  const h = catalogs(head);
  const catalogsAdded = [...h].filter((c) => !b.has(c)).sort();
  const catalogsRemoved = [...b].filter((c) => !h.has(c)).sort();
  const count = (r: Report) => {
    const m = new Map<string, number>();
    for (const f of r.findings) m.set(f.ruleId, (m.get(f.ruleId) ?? 0) + 1);
    return m;
  };
  const bc = count(base);
  const hc = count(head);
  const ids = [...new Set([...bc.keys(), ...hc.keys()])].sort();
  const findingDelta = ids.map((ruleId) => ({ ruleId, base: bc.get(ruleId) ?? 0, head: hc.get(ruleId) ?? 0 })).filter((d) => d.base !== d.head);
  return { catalogsAdded, catalogsRemoved, findingDelta, changed: catalogsAdded.length > 0 || catalogsRemoved.length > 0 };
}
