import { execFileSync } from 'node:child_process';

/**
 * One run of an agent suite written as native JSON lines, for the tests of the comparison
 * with several base runs (test/cli/flaky-baselines.test.ts, test/github/dist/flaky-baseline-dist.test.ts):
 * three scenarios, each with a catalog and every tool called once with its result, no finding.
 * `storm`: the `search` scenario asks the same query four times (one retry-storm warning, the
 * non-deterministic part: some runs on main have it, some do not; each repeat is also a
 * redundant-call note). `orphan`: one more scenario
 * whose `read_file` call never gets a result (one orphan-call error, a real regression).
 */
export interface SuiteRun {
  readonly storm?: boolean;
  readonly orphan?: boolean;
}

const TOOLS = ['read_file', 'search_docs', 'write_file'];

export function suiteTrace(run: SuiteRun = {}): string {
  const out: unknown[] = [];
  const scenario = (name: string, body: (call: (id: string, tool: string, args: object, answered?: boolean) => void) => void) => {
    out.push({ type: 'catalog', run_id: name, catalog_names: TOOLS });
    body((id, tool, args, answered = true) => {
      out.push({ type: 'tool_call', run_id: name, tool_call_id: id, name: tool, arguments: args });
      if (answered) out.push({ type: 'tool_result', run_id: name, tool_call_id: id, name: tool, result: { ok: true } });
    });
  };
  const everyTool = (call: (id: string, tool: string, args: object) => void, prefix: string) => TOOLS.forEach((tool, i) => call(`${prefix}-${i}`, tool, { path: `src/${prefix}_${i}.py` }));
  scenario('checkout', (call) => everyTool(call, 'co'));
  scenario('refund', (call) => everyTool(call, 'rf'));
  scenario('search', (call) => {
    everyTool(call, 'se');
    const times = run.storm ? 4 : 1;
    for (let i = 0; i < times; i += 1) call(`q-${i}`, 'search_docs', { query: 'refund policy' });
  });
  if (run.orphan) scenario('cancel', (call) => {
    everyTool(call, 'ca');
    call('hang-0', 'read_file', { path: 'src/cancel.py' }, false);
  });
  return out.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/**
 * Counted by python3 from the trace alone: retry storms (a tool called 3+ times with the same
 * arguments in a run), repeats (each identical call after the first: redundant-call) and calls without a result.
 */
export function countSuite(text: string): { storms: number; repeats: number; orphans: number } {
  const script = `import json, sys, collections
recs = [json.loads(l) for l in sys.stdin.read().splitlines() if l.strip()]
calls = [r for r in recs if r['type'] == 'tool_call']
results = {(r['run_id'], r['tool_call_id']) for r in recs if r['type'] == 'tool_result'}
same = collections.Counter((c['run_id'], c['name'], json.dumps(c['arguments'], sort_keys=True)) for c in calls)
print(json.dumps({'storms': sum(1 for n in same.values() if n >= 3), 'repeats': sum(n - 1 for n in same.values()), 'orphans': sum(1 for c in calls if (c['run_id'], c['tool_call_id']) not in results)}))`;
  return JSON.parse(execFileSync('python3', ['-c', script], { input: text, encoding: 'utf8' })) as { storms: number; repeats: number; orphans: number };
}
