import { join } from 'node:path';
import { materialize, runAudit, type MaterializedAudit } from '../../src/audit/engine/engine.js';
import { pairRun } from '../../src/audit/facts/pairing.js';
import { resolveConfig } from '../../src/config/config.js';
import type { Run } from '../../src/model/run.js';
import { payloadRuns, type PayloadRun } from '../payload-runs.js';
import { tempTree } from '../helpers.js';
import { expect } from 'vitest';
import { corpusCounts, corpusFile } from '../public-corpus.js';

/** What a format test asserts about one run. */
export interface RunCounts {
  runId: string | null;
  llm: number;
  calls: number;
  results: number;
  errors: number;
  orphans: string[];
  unmatched: string[];
  catalog: string[];
}

export function countRun(run: Run): RunCounts {
  const pairing = pairRun(run);
  return {
    runId: run.runId,
    llm: run.llmSpans.length,
    calls: run.calls.length,
    results: run.results.length,
    errors: run.results.filter((r) => r.isError).length,
    orphans: pairing.orphans.map((c) => `${c.callId ?? '-'}:${c.tool}`),
    unmatched: pairing.unmatched.map((r) => `${r.callId ?? '-'}:${r.tool ?? '-'}`),
    catalog: [...new Set(run.catalogs.flatMap((c) => c.names))].sort(),
  };
}

/** Audits files in place (paths relative to the project root) with the real engine; collects every run. */
export async function auditPaths(paths: string[], inputFormat?: string): Promise<{ result: MaterializedAudit; runs: PayloadRun[] }> {
  const { runs, onRecord, onRun } = payloadRuns();
  const inputs = paths.map((path) => ({ path, display: path }));
  const result = materialize(await runAudit(inputs, resolveConfig({}), { onRun, onRecord, ...(inputFormat ? { inputFormat } : {}) }));
  return { result, runs };
}

/** Like auditPaths, for public corpus files (test/public-corpus.ts), shown by their path under the corpus folder. */
export async function auditCorpus(files: string[], inputFormat?: string): Promise<{ result: MaterializedAudit; runs: PayloadRun[] }> {
  const { runs, onRecord, onRun } = payloadRuns();
  const inputs = files.map((file) => ({ path: corpusFile(file), display: file }));
  const result = materialize(await runAudit(inputs, resolveConfig({}), { onRun, onRecord, ...(inputFormat ? { inputFormat } : {}) }));
  return { result, runs };
}

/** Each public corpus file audited on its own, in the order given: its file summary, its first run and its findings. */
export async function auditEachCorpus(files: readonly string[]) {
  const audits: Array<Awaited<ReturnType<typeof auditCorpus>>> = [];
  for (const file of files) audits.push(await auditCorpus([file]));
  return {
    files: audits.map((a) => a.result.files.map((f) => [f.format, f.runs, f.skipped])[0]),
    runs: audits.flatMap((a) => a.runs),
    findings: audits.flatMap((a) => a.result.findings),
    audits,
  };
}

/** A run's counts against its file's manifest row (counted with python3, independently of the tool): the keys the row has of llm, calls, results, orphans. */
export function expectManifestCounts(file: string, run: RunCounts): void {
  const counts = corpusCounts(file);
  const got: Record<string, number> = { llm: run.llm, calls: run.calls, results: run.results, orphans: run.orphans.length };
  const keys = ['llm', 'calls', 'results', 'orphans'].filter((key) => key in counts);
  expect(keys.map((key) => got[key]), file).toEqual(keys.map((key) => counts[key]));
}

/** Findings reduced to rule, line, ids and message, in report order. */
export function findingList(result: MaterializedAudit): Array<[string, number, string | null, string | null, string]> {
  return result.findings.map((f) => [f.ruleId, f.line, f.runId, f.callId, f.message]);
}

/** Like auditPaths, for in-memory files (written to a temporary folder, shown by their names). */
export async function auditTemp(files: Record<string, string | Uint8Array>, inputFormat?: string): Promise<{ result: MaterializedAudit; runs: PayloadRun[] }> {
  const root = tempTree(files);
  const { runs, onRecord, onRun } = payloadRuns();
  const inputs = Object.keys(files).sort().map((name) => ({ path: join(root, name), display: name }));
  const result = materialize(await runAudit(inputs, resolveConfig({}), { onRun, onRecord, ...(inputFormat ? { inputFormat } : {}) }));
  return { result, runs };
}
