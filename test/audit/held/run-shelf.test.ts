import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditPartial, finishAudit, materialize, runAudit, type AuditResult } from '../../../src/audit/engine/engine.js';
import { resolveConfig } from '../../../src/config/config.js';
import { buildReport } from '../../../src/report/build.js';
import { jsonl, tempTree } from '../../helpers.js';

// Issue 22: the report lists the first limits.max-runs runs and counts the rest, so
// the audit holds no more than that many run summaries, and each distinct catalog once.

/** `runs` runs named `${prefix}${i}`, interleaved (each result after the next run's call); every fourth run offers one of three catalogs. */
function trace(prefix: string, runs: number): string {
  const records: unknown[] = [];
  for (let i = 0; i < runs; i += 1) {
    const run = `${prefix}${i}`;
    if (i % 4 === 0) records.push({ type: 'catalog', run_id: run, catalog_names: [`tool_${i % 3}`] });
    records.push({ run_id: run, kind: 'tool_call', call_id: 'c', tool: 'ls' });
    if (i > 0) records.push({ run_id: `${prefix}${i - 1}`, kind: 'tool_result', call_id: 'c', tool: 'ls', result: { ok: i % 7 !== 0 } });
  }
  return jsonl(...records);
}

/** The report's run and catalog lists, and its summary, as JSON. */
function listed(result: AuditResult, config: ReturnType<typeof resolveConfig>): string {
  const { summary, runs, omittedRuns, catalogs, omittedCatalogs } = buildReport(result, config);
  return JSON.stringify({ summary, runs, omittedRuns, catalogs, omittedCatalogs });
}

describe('the runs an audit holds', () => {
  it('past limits.max-runs, holds that many run summaries and one copy of each catalog, and reports the same', async () => {
    const root = tempTree({ 'a.jsonl': trace('a', 50), 'b.jsonl': trace('b', 29_950) });
    const inputs = ['b.jsonl', 'a.jsonl'].map((name) => ({ path: join(root, name), display: name }));
    const config = resolveConfig({ limits: { 'max-runs': 100 } });
    const capped = await runAudit(inputs, config);
    const whole = await runAudit(inputs, { ...config, maxRuns: undefined });
    try {
      // a.jsonl's 50 runs, and the first 50 of b.jsonl's; the other 29,900 only counted.
      expect(capped.runs).toHaveLength(100);
      expect(capped.runs.map((run) => run.runId).slice(48, 52)).toEqual(['a48', 'a49', 'b0', 'b1']);
      expect(capped.omittedRuns).toEqual({ runs: 29_900, toolCalls: 29_900, toolResults: 29_900 - 1 });
      expect(whole.runs).toHaveLength(30_000);
      expect(whole.omittedRuns).toEqual({ runs: 0, toolCalls: 0, toolResults: 0 });
      // Three distinct catalogs, whichever runs offered them.
      expect(capped.catalogs).toHaveLength(3);
      expect(whole.catalogs).toHaveLength(3);
      const report = JSON.parse(listed(capped, config)) as { summary: { runs: number }; omittedRuns: { runs: number } };
      expect([report.summary.runs, report.omittedRuns.runs]).toEqual([30_000, 29_900]);
      expect(listed(capped, config)).toBe(listed(whole, config));
      expect(materialize(capped).findings).toEqual(materialize(whole).findings);
    } finally {
      capped.store.close();
      whole.store.close();
    }
  }, 120_000);
});

describe('schema-drift across runs', () => {
  it('holds each distinct schema once, however many runs offer it, and reports the first change', async () => {
    const records = Array.from({ length: 2_000 }, (_, i) => ({ type: 'catalog', run_id: `r${i}`, catalog_names: ['ls'], schema_sha256: { ls: (i % 2 === 0 || i < 5 ? 'aa' : 'bb').repeat(32) } }));
    const root = tempTree({ 't.jsonl': jsonl(...records) });
    const partial = await auditPartial([{ path: join(root, 't.jsonl'), display: 't.jsonl' }], resolveConfig({}));
    const state = partial.states.find(([id]) => id === 'schema-drift')![1] as Map<string, Map<string, unknown>>;
    expect([...state.keys()]).toEqual(['ls']);
    expect(state.get('ls')!.size).toBe(2);
    const result = materialize(finishAudit([partial], resolveConfig({})));
    expect(result.findings.filter((f) => f.ruleId === 'schema-drift').map((f) => [f.line, f.runId])).toEqual([[6, 'r5']]);
  });
});
