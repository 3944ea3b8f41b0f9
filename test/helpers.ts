import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { materialize, runAudit, type AuditOptions, type MaterializedAudit } from '../src/audit/engine/engine.js';
import { resolveConfig, type AuditConfig, type ConfigFile } from '../src/config/config.js';
import { materializeOutcome } from '../src/core.js';
import type { AuditInput } from '../src/model/audit.js';
import type { Finding } from '../src/model/finding.js';
import { buildReport } from '../src/report/build.js';
import { judge, type Judged } from '../src/report/verdict/judge.js';
import type { Report } from '../src/report/schema.js';
import { tempDir } from './temp-folders.js';

export { tempDir };

/** Writes files (name → text or bytes) into a fresh temporary folder (see tempDir) and returns its path. */
export function tempTree(files: Record<string, string | Uint8Array>): string {
  const root = tempDir();
  for (const [name, content] of Object.entries(files)) {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return root;
}

/** JSON lines from objects (each line ends with a newline). */
export function jsonl(...records: unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/**
 * runAudit with its report built, both materialized (the findings read into arrays,
 * the store closed): what most tests assert on.
 */
export async function audited(inputs: readonly AuditInput[], config: AuditConfig, options: AuditOptions = {}): Promise<{ report: Report; result: MaterializedAudit }> {
  const stored = await runAudit(inputs, config, options);
  try {
    return materializeOutcome({ report: buildReport(stored, config), result: stored });
  } catch (error) {
    stored.store.close();
    throw error;
  }
}

/** Writes in-memory files to a temporary folder, as audit inputs shown by their names (in name order). */
function writtenInputs(files: Record<string, string | Uint8Array>): AuditInput[] {
  const root = tempTree(files);
  return Object.keys(files)
    .sort()
    .map((name) => ({ path: join(root, name), display: name }));
}

/** Audits in-memory files with the real engine (files are written to a temporary folder), findings materialized. */
export async function auditFiles(files: Record<string, string | Uint8Array>, config: ConfigFile = {}): Promise<MaterializedAudit> {
  return materialize(await runAudit(writtenInputs(files), resolveConfig(config)));
}

/** The report of `auditFiles` (built with the same configuration), findings as an array. */
export async function reportOfFiles(files: Record<string, string | Uint8Array>, config: ConfigFile = {}): Promise<Report> {
  return (await audited(writtenInputs(files), resolveConfig(config))).report;
}

/** The findings of one rule, reduced to what tests usually assert. */
export function findingsOf(result: MaterializedAudit, ruleId: string): Array<Pick<Finding, 'line' | 'callId' | 'tool' | 'runId' | 'message'>> {
  return result.findings
    .filter((f) => f.ruleId === ruleId)
    .map(({ line, callId, tool, runId, message }) => ({ line, callId, tool, runId, message }));
}

/** The verdict every CLI edge shows for a report on its own (fail-on error, gate all, no baseline): what renderMarkdown needs. */
export function judgedAlone(report: Report): Judged {
  return judge(report, { config: { failOn: 'error' }, baseline: null, defaultGate: 'all', allowEmpty: true });
}
