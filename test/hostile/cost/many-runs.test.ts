import { beforeAll, describe, expect, it } from 'vitest';
import { reportCatalogSnapshot } from '../../../src/report/catalogs.js';
import { mergeReports } from '../../../src/report/merge.js';
import { DEFAULT_MAX_RUNS } from '../../../src/report/run-cap.js';
import { reportSchema, type Report } from '../../../src/report/schema.js';
import { useActionHarness } from '../../github/support/action-harness.js';
import { tempTree } from '../../helpers.js';
import { auditJson, callLine, runInProcess } from '../audit-cli.js';

// A trace makes runs as cheaply as findings: every line with a new run id is a
// run. The report lists at most limits.max-runs of them and counts the rest.

/** Runs past the default cap in the generated trace. */
const EXTRA = 50;
/** Each run: one call and its result, under a run id of 400 CJK characters (3 UTF-8 bytes each), the costliest the sanitizer lets through. */
function manyRunsTrace(runs: number): string {
  const out: string[] = [];
  for (let i = 0; i < runs; i += 1) {
    const run = `${i}:${'\u4e00'.repeat(400)}`;
    out.push(JSON.stringify({ run_id: run, kind: 'tool_call', call_id: 'c', tool: 'ls' }));
    out.push(JSON.stringify({ run_id: run, kind: 'tool_result', call_id: 'c', tool: 'ls', result: { ok: true } }));
  }
  return `${out.join('\n')}\n`;
}
/** What one entry of runs[] costs in report.json at most (docs/configuration.md): file, run id and catalog hash of 300 characters. */
const RUN_ENTRY_BYTES = 3 * 1024;

/** A small honest trace beside it ('honest' sorts before 'runs'): one orphan call. */
const HONEST = `${callLine('h1')}\n${JSON.stringify({ run_id: 'r1', kind: 'llm' })}\n`;

describe('run amplification is capped', () => {
  it(`a trace of ${DEFAULT_MAX_RUNS + EXTRA} runs lists ${DEFAULT_MAX_RUNS}, counts the rest, and the rest of the audit is intact`, async () => {
    const root = tempTree({ 'runs.jsonl': manyRunsTrace(DEFAULT_MAX_RUNS + EXTRA), 'honest.jsonl': HONEST });
    const run = await runInProcess(['audit', 'honest.jsonl', 'runs.jsonl', '--format', 'json', '--jobs', '1'], root);
    const report = reportSchema.parse(JSON.parse(run.stdout));
    // Every run counted: the trace's, and the honest file's one.
    expect(report.summary).toMatchObject({ files: 2, runs: DEFAULT_MAX_RUNS + EXTRA + 1, toolCalls: DEFAULT_MAX_RUNS + EXTRA + 1, toolResults: DEFAULT_MAX_RUNS + EXTRA });
    expect(report.runs).toHaveLength(DEFAULT_MAX_RUNS);
    // The honest run is listed first; the runs past the cap are the trace's last EXTRA + 1, one call and one result each.
    expect(report.runs[0]).toEqual({ file: 'honest.jsonl', runId: 'r1', format: 'native-jsonl', catalogSha256: null, toolCalls: 1, toolResults: 0 });
    expect(report.omittedRuns).toEqual({ runs: EXTRA + 1, toolCalls: EXTRA + 1, toolResults: EXTRA + 1 });
    expect(report.files.map((f) => [f.path, f.records, f.runs])).toEqual([
      ['honest.jsonl', 2, 1],
      ['runs.jsonl', 2 * (DEFAULT_MAX_RUNS + EXTRA), DEFAULT_MAX_RUNS + EXTRA],
    ]);
    // The runs list stays within the documented bound, and the whole report with it.
    const runsBytes = Buffer.byteLength(JSON.stringify(report.runs, null, 2));
    expect(runsBytes).toBeGreaterThan(DEFAULT_MAX_RUNS * 900);
    expect(runsBytes).toBeLessThanOrEqual(DEFAULT_MAX_RUNS * RUN_ENTRY_BYTES);
    expect(Buffer.byteLength(run.stdout)).toBeLessThanOrEqual(DEFAULT_MAX_RUNS * RUN_ENTRY_BYTES + 64 * 1024);
    // The rest of the audit: the honest file's findings are those it has alone.
    const alone = await auditJson(['honest.jsonl'], [], root);
    expect(report.findings.filter((f) => f.file === 'honest.jsonl')).toEqual(alone.report.findings);
    expect(alone.report.findings.map((f) => f.ruleId)).toEqual(['catalog-missing', 'continued-while-outstanding', 'orphan-call']);
    // The trace's own: one catalog-missing note per run (none has a catalog), capped per rule and file.
    const trace = report.findings.filter((f) => f.file === 'runs.jsonl');
    expect(trace).toHaveLength(1001);
    expect(trace.every((f) => f.ruleId === 'catalog-missing')).toBe(true);
  }, 180_000);

  it('distinct tool catalogs are capped by the same figure, and a report that lists only some is not compared', async () => {
    // Five runs, each offered its own one-tool catalog; the config lists three runs (and three catalogs).
    const lines = ['a', 'b', 'c', 'd', 'e'].flatMap((run) => [
      JSON.stringify({ type: 'catalog', run_id: run, catalog_names: [`tool_${run}`] }),
      JSON.stringify({ run_id: run, kind: 'tool_call', call_id: `c${run}`, tool: `tool_${run}` }),
    ]);
    const root = tempTree({ 'agent-trace-audit.yml': 'limits:\n  max-runs: 3\n', 'c.jsonl': `${lines.join('\n')}\n` });
    const { report } = await auditJson(['c.jsonl'], [], root);
    expect(report.catalogs).toHaveLength(3);
    expect(report.omittedCatalogs).toBe(2);
    expect(new Set(report.catalogs!.map((c) => c.tools[0]!.name)).size).toBe(3);
    expect(reportCatalogSnapshot(report)).toBeNull();
    const merged = mergeReports([report, report], 3);
    expect([merged.catalogs, merged.omittedCatalogs]).toEqual([report.catalogs, 4]);
    const text = (await runInProcess(['audit', 'c.jsonl', '--format', 'text', '--jobs', '1'], root)).stdout.split('\n')[3];
    expect(text).toBe(
      "The report lists 3 of 5 run(s); 2 more (2 tool call(s), 0 result(s)) are counted in the summary, not listed (limits.max-runs). It lists 3 of 5 distinct tool catalog(s) (limits.max-runs), so its catalogs are not compared with another branch's.",
    );
  });

  it('merged shards add up what they left out and cap the merged list again', () => {
    const shard = (file: string, listed: number, omitted: number): Report => ({
      schemaVersion: 1,
      tool: { name: 'agent-trace-audit', version: '0.1.0' },
      summary: { files: 1, runs: listed + omitted, toolCalls: listed + 2 * omitted, toolResults: 0, findings: { error: 0, warning: 0, note: 0 } },
      files: [{ path: file, format: 'native-jsonl', records: listed + omitted, runs: listed + omitted }],
      runs: Array.from({ length: listed }, (_, i) => ({ file, runId: `r${i}`, format: 'native-jsonl', catalogSha256: null, toolCalls: 1, toolResults: 0 })),
      ...(omitted > 0 ? { omittedRuns: { runs: omitted, toolCalls: 2 * omitted, toolResults: 0 } } : {}),
      rules: [],
      metrics: {},
      findings: [],
    });
    const merged = mergeReports([shard('a.jsonl', 4, 3), shard('b.jsonl', 4, 0)], 5);
    expect(merged.runs.map((r) => `${r.file} ${r.runId}`)).toEqual(['a.jsonl r0', 'a.jsonl r1', 'a.jsonl r2', 'a.jsonl r3', 'b.jsonl r0']);
    expect(merged.omittedRuns).toEqual({ runs: 3 + 3, toolCalls: 2 * 3 + 3, toolResults: 0 });
    expect(merged.summary).toMatchObject({ runs: 4 + 3 + 4, toolCalls: 4 + 6 + 4 });
    // Under the cap and nothing left out by a shard: no key at all, as before.
    expect('omittedRuns' in mergeReports([shard('b.jsonl', 4, 0)])).toBe(false);
  });
});

describe('every renderer says that runs were left out', () => {
  const NOTE = 'The report lists 3 of 5 run(s); 2 more (2 tool call(s), 0 result(s)) are counted in the summary, not listed (limits.max-runs).';
  /** Five runs of one orphan call each; the config lists three. */
  const files = {
    'agent-trace-audit.yml': 'limits:\n  max-runs: 3\n',
    'five.jsonl': ['a', 'b', 'c', 'd', 'e'].map((run) => JSON.stringify({ run_id: run, kind: 'tool_call', call_id: `c${run}`, tool: 'ls' })).join('\n') + '\n',
  };
  let root: string;
  const harness = useActionHarness();

  beforeAll(() => {
    root = tempTree(files);
  });

  it('the CLI: text, markdown, SARIF, HTML and JSON', async () => {
    const out: Record<string, string> = {};
    for (const format of ['text', 'markdown', 'sarif', 'html', 'json']) out[format] = (await runInProcess(['audit', 'five.jsonl', '--format', format, '--jobs', '1'], root)).stdout;
    expect(out['text']!.split('\n').slice(0, 4)).toEqual(['❌ 5 errors', 'agent-trace-audit 0.1.0: 1 file(s), 5 run(s), 5 tool call(s), 0 result(s)', 'findings: 5 error(s), 0 warning(s), 5 note(s)', NOTE]);
    expect(out['markdown']!.split('\n').slice(2, 5)).toEqual(['**Failed** (fail-on: error, gate: all): **5** error(s), **0** warning(s), **5** note(s); read 1 file, 5 tool calls, 0 results.', '', NOTE]);
    const sarif = JSON.parse(out['sarif']!) as { runs: Array<{ invocations: Array<{ toolExecutionNotifications: Array<{ message: { text: string } }> }>; results: unknown[] }> };
    expect(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text)).toEqual([NOTE]);
    expect(sarif.runs[0]!.results).toHaveLength(10);
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(out['html']!)![1]!) as { runsNote: string; runs: Array<{ runId: string }>; findings: { run: number[] } };
    expect(data.runsNote).toBe(`${NOTE} The timeline draws 3 run(s), the worst first.`);
    expect(data.runs).toHaveLength(3);
    // Findings of runs not drawn point at no run.
    expect(data.findings.run.filter((r) => r === -1)).toHaveLength(4);
    const json = reportSchema.parse(JSON.parse(out['json']!));
    expect(json.runs.map((r) => r.runId)).toEqual(['a', 'b', 'c']);
    expect(json.omittedRuns).toEqual({ runs: 2, toolCalls: 2, toolResults: 0 });
  });

  it('the bundled Action: the PR comment and the job summary', async () => {
    const { gh } = harness;
    gh.comments.set(42, []);
    const run = await harness.run(31, { traces: 'five.jsonl', upload: 'false', seal: 'false', baseline: 'off', 'fail-on': 'never' }, { workspace: root });
    expect(run.code, run.stdout).toBe(0);
    const count = (text: string) => text.split(NOTE).length - 1;
    expect(count(run.summary)).toBe(1);
    const comments = gh.comments.get(42)!;
    expect(comments).toHaveLength(1);
    expect(count(comments[0]!.body)).toBe(1);
  }, 120_000);
});
