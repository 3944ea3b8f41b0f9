import { compareUtf16 } from '../canonical/index.js';
import type { CatalogSnapshot } from '../audit/catalog/compare.js';
import type { Report, ReportCatalog } from './schema.js';

/**
 * The report's `catalogs`: each distinct catalog once (tools in name order),
 * sorted by hash and then content, so that a report built in one go and one
 * merged from shards list the same catalogs in the same order.
 */
export function uniqueCatalogs(catalogs: readonly ReportCatalog[]): ReportCatalog[] {
  const byKey = new Map<string, ReportCatalog>();
  for (const catalog of catalogs) {
    const tools = [...catalog.tools].sort((a, b) => compareUtf16(a.name, b.name) || compareUtf16(a.schemaSha256 ?? '', b.schemaSha256 ?? ''));
    const entry = { sha256: catalog.sha256, tools };
    byKey.set(JSON.stringify(entry), entry);
  }
  return [...byKey.entries()].sort(([ka, a], [kb, b]) => compareUtf16(a.sha256 ?? '', b.sha256 ?? '') || compareUtf16(ka, kb)).map(([, entry]) => entry);
}

/**
 * All tools the report's runs were offered, as compareCatalogs takes them:
 * name → schema hash. A name offered with different schema hashes within the
 * report maps to null (unknown), so it never counts as changed against another
 * branch; the schema-drift rule reports that drift within the audit. Null when
 * the report does not list catalogs (written by an older version) or lists
 * only some of them (limits.max-runs): a comparison would be wrong, not unknown.
 */
export function reportCatalogSnapshot(report: Report): CatalogSnapshot | null {
  if (!report.catalogs || (report.omittedCatalogs ?? 0) > 0) return null;
  const out = new Map<string, string | null>();
  const conflicted = new Set<string>();
  for (const catalog of report.catalogs) {
    for (const tool of catalog.tools) {
      if (!out.has(tool.name)) out.set(tool.name, tool.schemaSha256);
      else if (out.get(tool.name) !== tool.schemaSha256) conflicted.add(tool.name);
    }
  }
  for (const name of conflicted) out.set(name, null);
  return out;
}
