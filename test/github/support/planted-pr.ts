import { randomBytes, randomUUID } from 'node:crypto';
import type { Severity } from '../../../src/model/finding.js';

/**
 * Traces with planted defects, for a realistic pull request run of the bundled
 * Action (test/github/dist/pr-run-dist.test.ts). Each defect is one call (or one
 * result) of a run and gives the findings FINDINGS_OF lists, no more: every
 * catalog tool is called once cleanly (no unused-tool), arguments differ from
 * call to call (no retry-storm), there are no llm spans, and a failed call is
 * retried at once with success (no slow-recovery). The same trace
 * with `fixed: true` has the same calls, each with its result, in the catalog,
 * without the key and without the traceback: no finding.
 */
export type Defect = 'orphan' | 'unknown' | 'ghost' | 'secret' | 'traceback';

/** What each defect is reported as: rule id and severity, as the rule pages say. */
export const FINDINGS_OF: Readonly<Record<Defect, ReadonlyArray<readonly [string, Severity]>>> = {
  orphan: [['orphan-call', 'error']],
  unknown: [['unknown-tool', 'error']],
  ghost: [['unmatched-result', 'error']],
  secret: [['secret-in-trace', 'error']],
  traceback: [
    ['internal-detail-leak', 'warning'],
    ['stack-trace-in-result', 'warning'],
  ],
};

const CATALOG = ['fetch_page', 'list_dir', 'read_file', 'run_tests', 'search_docs', 'write_file'];
/** A tool the catalog does not offer (the model invented it). */
const INVENTED = 'deploy_preview';

/** A fake AWS access key id for defect `n` (AKIA and 16 upper-case letters and digits). */
export function plantedKey(n: number): string {
  return `AKIAPLANTED${String(n).padStart(9, '0')}`;
}

export interface PlantOptions {
  readonly fixed?: boolean;
  /**
   * Written afresh, as a live suite writes its run: a UUID run id, the run's name as its
   * `run_name` (docs/action.md, "A stable scenario name"), and a random id for each call
   * instead of `<defect>-<n>`; the map is filled with plan id → the id written.
   */
  readonly fresh?: Map<string, string>;
}

/** One run's JSON lines: a catalog, one clean call per tool, then each defect in order (call ids `<defect>-<n>`, or fresh ones). */
export function plantedTrace(run: string, defects: readonly Defect[], options: PlantOptions = {}): string {
  const fixed = options.fixed === true;
  const fresh = options.fresh;
  const runId = fresh ? randomUUID() : run;
  const idOf = (id: string) => {
    if (!fresh) return id;
    if (!fresh.has(id)) fresh.set(id, `call_${randomBytes(12).toString('base64url')}`);
    return fresh.get(id)!;
  };
  const out: unknown[] = [{ type: 'catalog', run_id: runId, ...(fresh ? { run_name: run } : {}), catalog_names: CATALOG }];
  const call = (id: string, name: string, args: Record<string, unknown>) => out.push({ type: 'tool_call', run_id: runId, tool_call_id: idOf(id), name, arguments: args });
  const result = (id: string, name: string, body: Record<string, unknown> = { result: { ok: true } }) => out.push({ type: 'tool_result', run_id: runId, tool_call_id: idOf(id), name, ...body });
  CATALOG.forEach((tool, i) => {
    call(`ok-${i}`, tool, { path: `src/clean_${i}.py` });
    result(`ok-${i}`, tool);
  });
  defects.forEach((defect, n) => {
    const id = `${defect}-${n}`;
    const path = `src/module_${n}.py`;
    if (defect === 'orphan') {
      call(id, 'read_file', { path });
      if (fixed) result(id, 'read_file');
    } else if (defect === 'unknown') {
      const tool = fixed ? 'run_tests' : INVENTED;
      call(id, tool, { target: path });
      result(id, tool);
    } else if (defect === 'ghost') {
      if (fixed) call(id, 'list_dir', { path });
      result(id, 'list_dir');
    } else if (defect === 'secret') {
      call(id, 'fetch_page', { url: `https://example.com/page/${n}`, ...(fixed ? {} : { api_key: plantedKey(n) }) });
      result(id, 'fetch_page');
    } else {
      call(id, 'search_docs', { query: `module ${n}` });
      const traceback = `Traceback (most recent call last):\n  File "/srv/agent/tools/search.py", line ${40 + n}, in search\n    raise TimeoutError('index did not answer')\nTimeoutError: index did not answer`;
      result(id, 'search_docs', fixed ? { result: { hits: [] } } : { error: { code: 'upstream_timeout', message: traceback } });
      // Retried at once with success: no slow-recovery.
      call(`${id}-retry`, 'search_docs', { query: `module ${n}`, retry: true });
      result(`${id}-retry`, 'search_docs', { result: { hits: [] } });
    }
  });
  return out.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/** The findings the defects give, counted from the plan alone: [rule id, severity, call id]. */
export function plantedFindings(defects: readonly Defect[], findingsOf: Readonly<Record<Defect, ReadonlyArray<readonly [string, Severity]>>> = FINDINGS_OF): Array<readonly [string, Severity, string]> {
  return defects.flatMap((defect, n) => findingsOf[defect].map(([rule, severity]) => [rule, severity, `${defect}-${n}`] as const));
}

/** `count` copies of each defect kind given, in the order given. */
export function plan(counts: Partial<Record<Defect, number>>): Defect[] {
  return (Object.entries(counts) as Array<[Defect, number]>).flatMap(([defect, count]) => Array<Defect>(count).fill(defect));
}
