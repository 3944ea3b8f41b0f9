import type { Report } from './schema.js';

type ArtifactEntry = NonNullable<Report['artifacts']>[number];

/**
 * The `artifacts` of several reports as one list (identical entries once,
 * sorted by name then id), as a fragment to spread into a merged report:
 * empty when no report lists any, so the field stays absent.
 */
export function mergedArtifacts(reports: readonly Report[]): { artifacts?: ArtifactEntry[] } {
  const seen = new Map<string, ArtifactEntry>();
  for (const report of reports) for (const a of report.artifacts ?? []) seen.set(JSON.stringify([a.name, a.id, a.digest, a.files]), a);
  if (seen.size === 0) return {};
  const artifacts = [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id || a.files - b.files));
  return { artifacts };
}
