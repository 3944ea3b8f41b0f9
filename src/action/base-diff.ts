import { compareCatalogs, type CatalogComparison } from '../audit/catalog/compare.js';
import { reportCatalogSnapshot } from '../report/catalogs.js';
import { recoveryDistribution, type RecoveryDistribution } from '../report/render/metrics-view.js';
import { countByRule } from '../report/verdict/delta.js';
import type { Report } from '../report/schema.js';

/**
 * What changed against the base branch, for the comment and the
 * `catalog-changed` output: tools added and removed and schemas changed
 * (compareCatalogs over every catalog either report lists), the change in
 * finding counts per rule, and the recovery-attempt distributions when
 * either side recorded one, against the newest base report. The findings new,
 * flaky and fixed are the verdict's (src/report/verdict/delta.ts), not these.
 */
export interface BaseDiff {
  /** Null when either report does not list its catalogs (one written by an older version). */
  readonly catalog: CatalogComparison | null;
  /** Only rules whose count changed, by rule id. */
  readonly findingDelta: Array<{ ruleId: string; base: number; head: number }>;
  /** Null when neither report has slow-recovery figures. */
  readonly recovery: { readonly base: RecoveryDistribution; readonly head: RecoveryDistribution } | null;
  /** A tool was added or removed or its schema changed. */
  readonly changed: boolean;
}

export function diffAgainstBase(base: Report, head: Report): BaseDiff {
  const before = reportCatalogSnapshot(base);
  const after = reportCatalogSnapshot(head);
  const catalog = before && after ? compareCatalogs(before, after) : null;
  const bc = countByRule(base.findings);
  const hc = countByRule(head.findings);
  const ids = [...new Set([...bc.keys(), ...hc.keys()])].sort();
  const findingDelta = ids.map((ruleId) => ({ ruleId, base: bc.get(ruleId) ?? 0, head: hc.get(ruleId) ?? 0 })).filter((d) => d.base !== d.head);
  const hasRecovery = (r: Report) => 'slow-recovery.attempts' in r.metrics || 'slow-recovery.unrecovered' in r.metrics;
  const recovery = hasRecovery(base) || hasRecovery(head) ? { base: recoveryDistribution(base.metrics), head: recoveryDistribution(head.metrics) } : null;
  const changed = catalog !== null && catalog.added.length + catalog.removed.length + catalog.schemaChanged.length > 0;
  return { catalog, findingDelta, recovery, changed };
}
