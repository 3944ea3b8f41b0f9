import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchBaseline } from '../../src/github/baseline.js';
import { diffAgainstBase } from '../../src/action/base-diff.js';
import { findingDelta } from '../../src/report/verdict/delta.js';
import type { RunContext } from '../../src/github/context.js';
import { restClient } from '../../src/github/octokit.js';
import { renderJson } from '../../src/report/render/json.js';
import type { Report } from '../../src/report/schema.js';
import { jsonl, reportOfFiles, tempTree } from '../helpers.js';

const grep = (pattern: string) => ({ type: 'object', properties: { [pattern]: { type: 'string' } } });
const catalog = (schemas: Record<string, unknown>) => ({ type: 'catalog', run_id: 'run-1', catalog_names: Object.keys(schemas).sort(), schemas });
const call = { type: 'tool_call', run_id: 'run-1', tool_call_id: 'c1', name: 'grep', arguments: {} };

async function reportWith(schemas: Record<string, unknown>, extra: unknown[] = []): Promise<Report> {
  return reportOfFiles({ 't.jsonl': jsonl(catalog(schemas), call, ...extra) });
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' }).trim();
}

function context(workspace: string, baseSha: string): RunContext {
  return {
    eventName: 'pull_request', owner: 'o', repo: 'r', runId: 1, sha: '', serverUrl: 'https://github.com', apiUrl: 'http://127.0.0.1:9', workspace, tempDir: '',
    workflowFile: 'ci.yml', pullRequest: { number: 1, baseSha, baseRef: 'main', headSha: '' }, workflowRun: undefined,
  };
}

describe('baseline file:<path> reads the base commit, never the checkout', () => {
  it('uses the committed version at the base sha and reports the catalog change', async () => {
    const repo = tempTree({});
    git(repo, 'init', '-q');
    const base = await reportWith({ grep: grep('pattern'), old_tool: {} });
    writeFileSync(join(repo, 'baseline.json'), renderJson(base));
    git(repo, 'add', 'baseline.json');
    git(repo, 'commit', '-qm', 'base');
    const baseSha = git(repo, 'rev-parse', 'HEAD');
    // The PR rewrites the baseline file in its checkout: it must not be read.
    writeFileSync(join(repo, 'baseline.json'), renderJson(await reportWith({ grep: grep('pattern') })));
    const api = restClient('unused', 'http://127.0.0.1:9');
    const found = await fetchBaseline({ kind: 'file', path: 'baseline.json' }, context(repo, baseSha), api, 'unused', { prefix: 'agent-trace-audit' });
    const source = `baseline.json at ${baseSha.slice(0, 12)}`;
    expect(found).toEqual({ found: true, report: base, reports: [{ report: base, source, runId: null, time: null }], source });
    // The head renames grep's parameter (a schema change), drops old_tool and adds __proto__ (a real tool name).
    const head = await reportWith({ grep: grep('query'), ['__proto__']: {} }, [{ type: 'tool_result', run_id: 'run-1', tool_call_id: 'zz', name: 'grep', content: 'x' }]);
    const diff = diffAgainstBase(base, head);
    expect(diff.catalog).toEqual({ added: ['__proto__'], removed: ['old_tool'], schemaChanged: ['grep'] });
    expect(diff.changed).toBe(true);
    expect(diff.recovery).toBeNull();
    // orphan-call (c1) and unused-tool (old_tool, then __proto__) stay at 1 each.
    expect(diff.findingDelta).toEqual([{ ruleId: 'unmatched-result', base: 0, head: 1 }]);
    // A baseline written before reports listed catalogs: the catalogs are not compared, the counts still are.
    const { catalogs: _none, ...older } = base;
    expect(diffAgainstBase(older, head)).toMatchObject({ catalog: null, changed: false });
    expect(diffAgainstBase(base, base)).toEqual({ catalog: { added: [], removed: [], schemaChanged: [] }, findingDelta: [], recovery: null, changed: false });
    // By fingerprint: the same counts hide one unused-tool fixed (old_tool) and one new (__proto__); errors come first.
    const delta = findingDelta(base, head);
    expect(delta.added.map((f) => [f.ruleId, f.tool])).toEqual([['unmatched-result', 'grep'], ['unused-tool', '__proto__']]);
    expect(delta.fixed.map((f) => [f.ruleId, f.tool])).toEqual([['unused-tool', 'old_tool']]);
  });

  it('says plainly when there is no baseline', async () => {
    const repo = tempTree({ 'x.txt': 'x' });
    git(repo, 'init', '-q');
    git(repo, 'add', 'x.txt');
    git(repo, 'commit', '-qm', 'base');
    const sha = git(repo, 'rev-parse', 'HEAD');
    const api = restClient('unused', 'http://127.0.0.1:9');
    expect(await fetchBaseline({ kind: 'file', path: 'baseline.json' }, context(repo, sha), api, '', { prefix: 'n' })).toEqual({
      found: false,
      reason: `baseline.json is not in the base commit ${sha.slice(0, 12)} (or the checkout lacks it: use fetch-depth: 0)`,
    });
    expect(await fetchBaseline({ kind: 'off' }, context(repo, sha), api, '', { prefix: 'n' })).toEqual({ found: false, reason: 'baseline comparison is off' });
    expect(await fetchBaseline({ kind: 'file', path: '../etc/passwd' }, context(repo, sha), api, '', { prefix: 'n' })).toMatchObject({ found: false });
    expect(await fetchBaseline({ kind: 'artifact' }, { ...context(repo, sha), pullRequest: undefined }, api, '', { prefix: 'n' })).toEqual({
      found: false,
      reason: 'not a pull request, so there is no base branch to compare with',
    });
  });
});
