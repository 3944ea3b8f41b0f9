import type { Finding, Severity } from '../model/finding.js';
import { compareFindings, cmp } from '../audit/findings/findings.js';
import { RULES } from '../audit/rules/index.js';
import { mergedArtifacts } from './artifact-list.js';
import { uniqueCatalogs } from './catalogs.js';
import { capRuns, DEFAULT_MAX_RUNS, omittedRunsField, type OmittedRuns } from './run-cap.js';
import type { Report } from './schema.js';
import { REPORT_SCHEMA_VERSION } from './schema-version.js';
import { describeSuppression, MAX_SUPPRESSED_LISTED } from './verdict/suppress.js';

const RULE_ORDER = new Map(RULES.map((rule, i) => [rule.meta.id, i]));

/**
 * Merges reports (matrix shards) into one. The result does not depend on the
 * order or grouping of the inputs: every list is a set (identical entries are
 * one, so a finding seen by two shards counts once), sorted the way the engine
 * sorts; the summary is recomputed from the lists, and metrics, which rules keep
 * as additive counters, are summed.
 */
export function mergeReports(reports: readonly Report[], maxRuns = DEFAULT_MAX_RUNS): Report {
  if (reports.length === 0) throw new Error('mergeReports needs at least one report');
  const files = uniqueSorted(reports.flatMap((r) => r.files), (a, b) => cmp(a.path, b.path) || cmp(a.format, b.format));
  const allRuns = uniqueSorted(reports.flatMap((r) => r.runs), (a, b) => cmp(a.file, b.file) || cmp(a.runId ?? '', b.runId ?? '') || cmp(a.format, b.format));
  // Runs a shard only counted stay counted (summed); the merged list is capped again.
  const { runs, omittedRuns } = capRuns(allRuns, maxRuns, sumOmitted(reports));
  const omitted = omittedRuns ?? { runs: 0, toolCalls: 0, toolResults: 0 };
  const findings = uniqueSorted(reports.flatMap((r) => r.findings), compareFindings);
  const rules = uniqueSorted(
    reports.flatMap((r) => r.rules),
    (a, b) => (RULE_ORDER.get(a.id) ?? Infinity) - (RULE_ORDER.get(b.id) ?? Infinity) || cmp(a.id, b.id) || cmp(a.severity, b.severity),
  );
  const counts: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  const versions = reports.map((r) => r.tool.version).sort(compareVersions);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'agent-trace-audit', version: versions[versions.length - 1]! },
    summary: {
      files: files.filter((file) => file.notTrace === undefined).length,
      runs: runs.length + omitted.runs,
      toolCalls: runs.reduce((n, run) => n + run.toolCalls, omitted.toolCalls),
      toolResults: runs.reduce((n, run) => n + run.toolResults, omitted.toolResults),
      findings: counts,
    },
    files,
    runs,
    ...omittedRunsField(omittedRuns),
    ...mergedCatalogs(reports, maxRuns),
    rules,
    ...mergedRulesRun(reports),
    metrics: sumMetrics(reports.map((r) => r.metrics)),
    findings: findings as Finding[],
    ...mergedArtifacts(reports),
    ...mergedSuppressed(reports),
    ...mergedComparison(reports, findings),
  };
}

/** The rules any shard ran, once each (a rule two shards ran at two versions: both entries); absent when no shard lists them. */
function mergedRulesRun(reports: readonly Report[]): Pick<Report, 'rulesRun'> {
  if (!reports.some((r) => r.rulesRun)) return {};
  const all = reports.flatMap((r) => r.rulesRun ?? []);
  return { rulesRun: uniqueSorted(all, (a, b) => (RULE_ORDER.get(a.id) ?? Infinity) - (RULE_ORDER.get(b.id) ?? Infinity) || cmp(a.id, b.id) || a.version - b.version) };
}

/**
 * The shards' comparisons with their base reports, kept (the verdict is not: `merge` judges
 * again): the base reports once each, the fixed findings once each, the counts recomputed
 * from the merged findings' `baselineState`. Only when every shard was compared.
 */
function mergedComparison(reports: readonly Report[], findings: readonly Finding[]): Pick<Report, 'comparison'> {
  const given = reports.flatMap((r) => (r.comparison ? [r.comparison] : []));
  if (given.length === 0 || given.length < reports.length) return {};
  const baselines = uniqueSorted(given.flatMap((c) => c.baselines), (a, b) => cmp(a.source, b.source));
  const fixed = uniqueSorted(given.flatMap((c) => c.fixed), compareFindings);
  const n = (state: NonNullable<Finding['baselineState']>) => findings.filter((f) => f.baselineState === state).length;
  return { comparison: { baselines, counts: { new: n('new'), unchanged: n('unchanged'), flaky: n('flaky'), notCompared: n('not-compared'), fixed: fixed.length }, fixed } };
}

/** The shards' suppressed findings once each, counted together; each entry's matches summed. */
function mergedSuppressed(reports: readonly Report[]): Pick<Report, 'suppressed'> {
  const given = reports.flatMap((r) => (r.suppressed ? [r.suppressed] : []));
  if (given.length === 0) return {};
  const findings = uniqueSorted(given.flatMap((s) => s.findings), compareFindings).slice(0, MAX_SUPPRESSED_LISTED);
  const entries = new Map<string, NonNullable<Report['suppressed']>['entries'][number]>();
  for (const entry of given.flatMap((s) => s.entries)) {
    const key = describeSuppression(entry);
    const seen = entries.get(key);
    entries.set(key, seen ? { ...seen, matched: seen.matched + entry.matched } : entry);
  }
  return { suppressed: { count: given.reduce((n, s) => n + s.count, 0), entries: [...entries.values()], findings } };
}

/** The shards' catalogs once each, capped again like the runs; what a shard left out stays counted. */
function mergedCatalogs(reports: readonly Report[], max: number): Pick<Report, 'catalogs' | 'omittedCatalogs'> {
  if (!reports.some((r) => r.catalogs)) return {};
  const all = uniqueCatalogs(reports.flatMap((r) => r.catalogs ?? []));
  const omitted = Math.max(0, all.length - max) + reports.reduce((n, r) => n + (r.omittedCatalogs ?? 0), 0);
  return { catalogs: all.slice(0, max), ...(omitted > 0 ? { omittedCatalogs: omitted } : {}) };
}

function sumOmitted(reports: readonly Report[]): OmittedRuns | null {
  const given = reports.flatMap((r) => (r.omittedRuns ? [r.omittedRuns] : []));
  if (given.length === 0) return null;
  return given.reduce((a, b) => ({ runs: a.runs + b.runs, toolCalls: a.toolCalls + b.toolCalls, toolResults: a.toolResults + b.toolResults }));
}

function uniqueSorted<T>(items: readonly T[], compare: (a: T, b: T) => number): T[] {
  const seen = new Map<string, T>();
  for (const item of items) seen.set(JSON.stringify(item), item);
  return [...seen.entries()].sort((a, b) => compare(a[1], b[1]) || cmp(a[0], b[0])).map(([, item]) => item);
}

/** Adds numbers; objects are added key by key; anything else must agree (else the larger JSON wins, deterministically). */
export function sumMetrics(all: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = [...new Set(all.flatMap((m) => Object.keys(m)))].sort();
  for (const key of keys) {
    const values = all.filter((m) => Object.prototype.hasOwnProperty.call(m, key)).map((m) => m[key]);
    out[key] = values.reduce((a, b) => addMetric(a, b));
  }
  return out;
}

function addMetric(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (isRecord(a) && isRecord(b)) return sumMetrics([a, b]);
  const ja = JSON.stringify(a);
  const jb = JSON.stringify(b);
  return ja >= jb ? a : b;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Tool versions in order, the oldest first (numeric parts compared as numbers). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const pb = b.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const x = pa[i] ?? -1;
    const y = pb[i] ?? -1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}
