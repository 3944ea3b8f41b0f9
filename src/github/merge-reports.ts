import { SEVERITY_RANK, type Finding, type Severity } from '../model/finding.js';
import type { Report } from '../report/schema.js';
import { mergedArtifacts } from '../report/artifact-list.js';

/**
 * Shard reports merged into one: files, runs and rules united, findings
 * deduplicated by (rule, file, line, fingerprint), everything sorted so the
 * result does not depend on the order of the shards. Counts are recomputed.
 * (A minimal merge for `mode: merge`; the CLI's merge command may replace it.)
 */
export function mergeReports(reports: readonly Report[]): Report {
  if (reports.length === 0) throw new Error('no shard reports to merge');
  const findings = new Map<string, Finding>();
  for (const report of reports) {
    for (const f of report.findings) findings.set(JSON.stringify([f.file, f.line, f.ruleId, f.fingerprint, f.callId]), f);
  }
  const sortedFindings = [...findings.values()].sort(
    (a, b) => cmp(a.file, b.file) || a.line - b.line || cmp(a.ruleId, b.ruleId) || cmp(a.fingerprint, b.fingerprint),
  );
  const files = uniqueBy(reports.flatMap((r) => r.files), (f) => f.path);
  const runs = uniqueBy(reports.flatMap((r) => r.runs), (r) => JSON.stringify([r.file, r.runId]));
  const rules = uniqueBy(reports.flatMap((r) => r.rules), (r) => r.id);
  const counts: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const f of sortedFindings) counts[f.severity] += 1;
  const metrics: Record<string, unknown> = {};
  for (const report of reports) {
    for (const key of Object.keys(report.metrics)) {
      const a = metrics[key];
      const b = report.metrics[key];
      metrics[key] = typeof a === 'number' && typeof b === 'number' ? a + b : (a ?? b);
    }
  }
  const first = reports[0]!;
  return {
    schemaVersion: first.schemaVersion,
    tool: first.tool,
    summary: {
      files: files.length,
      runs: runs.length,
      toolCalls: runs.reduce((n, r) => n + r.toolCalls, 0),
      toolResults: runs.reduce((n, r) => n + r.toolResults, 0),
      findings: counts,
    },
    files: files.sort((a, b) => cmp(a.path, b.path)),
    runs: runs.sort((a, b) => cmp(a.file, b.file) || cmp(a.runId ?? '', b.runId ?? '')),
    rules: rules.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || cmp(a.id, b.id)),
    metrics: Object.fromEntries(Object.keys(metrics).sort().map((k) => [k, metrics[k]])),
    findings: sortedFindings,
    ...mergedArtifacts(reports),
  };
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
