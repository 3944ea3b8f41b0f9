import { materialize, runAudit, type MaterializedAudit } from '../../../src/audit/engine/engine.js';
import { resolveConfig } from '../../../src/config/config.js';
import type { Run } from '../../../src/model/run.js';
import { payloadRuns, type PayloadRun } from '../../payload-runs.js';

/** What a format test asserts about one run: exact counts and names, no timestamps. */
export interface RunFacts {
  runId: string | null;
  format: string;
  llm: number;
  calls: Array<[line: number, callId: string | null, tool: string]>;
  results: Array<[line: number, callId: string | null, tool: string | null, isError: boolean]>;
  catalogs: string[][];
}

export function factsOf(run: Run): RunFacts {
  return {
    runId: run.runId,
    format: run.format,
    llm: run.llmSpans.length,
    calls: run.calls.map((c) => [c.loc.line, c.callId, c.tool]),
    results: run.results.map((r) => [r.loc.line, r.callId, r.tool, r.isError]),
    catalogs: run.catalogs.map((c) => [...c.names]),
  };
}

/** Audits files in place with the real engine and default config; returns the result and every run. */
export async function auditWithRuns(paths: string[], inputFormat?: string): Promise<{ result: MaterializedAudit; runs: PayloadRun[] }> {
  const { runs, onRecord, onRun } = payloadRuns();
  const result = materialize(
    await runAudit(
      paths.map((path) => ({ path, display: path })),
      resolveConfig({}),
      { onRun, onRecord, ...(inputFormat ? { inputFormat } : {}) },
    ),
  );
  return { result, runs };
}
