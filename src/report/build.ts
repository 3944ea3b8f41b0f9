import type { AuditResult } from '../audit/engine/engine.js';
import type { FindingStore } from '../audit/findings/finding-store.js';
import { RULES } from '../audit/rules/index.js';
import { ruleVersion } from '../audit/rules/rule-types.js';
import type { AuditConfig } from '../audit/engine/audit-config.js';
import type { Severity } from '../model/finding.js';
import { sanitizeText } from '../sanitize/text.js';
import { VERSION } from '../version.js';
import { uniqueCatalogs } from './catalogs.js';
import { capRuns, DEFAULT_MAX_RUNS, omittedRunsField } from './run-cap.js';
import type { Report } from './schema.js';
import { REPORT_SCHEMA_VERSION } from './schema-version.js';

/**
 * Plain data out of an audit: the JSON report every renderer works from. Its findings
 * are the audit's store (read when the report is written, or by `materializeOutcome`);
 * the summary counts and the rules list come from the store's counters.
 */
export function buildReport(result: AuditResult, config: AuditConfig): Report<FindingStore> {
  const { error, warning, note } = result.store.counts;
  const counts: Record<Severity, number> = { error, warning, note };
  const fired = result.store.ruleIds;
  const clean = (text: string | null) => (text === null ? null : sanitizeText(text, { maxChars: 300 }));
  const maxRuns = config.maxRuns ?? DEFAULT_MAX_RUNS;
  const omitted = result.omittedRuns;
  const listed = capRuns(result.runs, maxRuns, omitted.runs > 0 ? { ...omitted } : null);
  const catalogs = uniqueCatalogs(
    result.catalogs.map((catalog) => ({ sha256: clean(catalog.sha256), tools: catalog.tools.map((tool) => ({ name: clean(tool.name)!, schemaSha256: clean(tool.schemaSha256) })) })),
  );
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'agent-trace-audit', version: VERSION },
    summary: {
      files: result.files.filter((file) => file.notTrace === undefined).length,
      runs: result.runs.length + omitted.runs,
      toolCalls: sum(result.runs.map((run) => run.toolCalls)) + omitted.toolCalls,
      toolResults: sum(result.runs.map((run) => run.toolResults)) + omitted.toolResults,
      findings: counts,
    },
    files: result.files.map((file) => ({ ...file, path: clean(file.path)! })),
    runs: listed.runs.map((run) => ({ ...run, file: clean(run.file)!, runId: clean(run.runId), catalogSha256: clean(run.catalogSha256) })),
    ...omittedRunsField(listed.omittedRuns),
    catalogs: catalogs.slice(0, maxRuns),
    ...(catalogs.length > maxRuns ? { omittedCatalogs: catalogs.length - maxRuns } : {}),
    rules: RULES.filter((rule) => fired.has(rule.meta.id)).map((rule) => {
      const setting = config.rules.get(rule.meta.id);
      const severity = setting && setting.severity !== 'off' ? setting.severity : rule.meta.defaultSeverity;
      return { id: rule.meta.id, severity, summary: rule.meta.summary, likelyCause: rule.meta.likelyCause, nextAction: rule.meta.nextAction, version: ruleVersion(rule.meta) };
    }),
    // Every rule this audit ran (on in the configuration), with its version: what a later comparison may compare.
    rulesRun: RULES.filter((rule) => {
      const setting = config.rules.get(rule.meta.id);
      return setting !== undefined && setting.severity !== 'off';
    }).map((rule) => ({ id: rule.meta.id, version: ruleVersion(rule.meta) })),
    metrics: sortedObject(result.metrics),
    findings: result.store,
  };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function sortedObject(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input).sort()) out[key] = input[key];
  return out;
}
