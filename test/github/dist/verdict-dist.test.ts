import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { pushToMain, useActionHarness, type StepOptions } from '../support/action-harness.js';

// The verdict of the bundled Action (dist/index.js) against a loopback GitHub: nothing
// audited never passes and fixes nothing; gate: new fails on new errors only.
const harness = useActionHarness();
let workspace: string;

const run = (runId: number, inputs: Record<string, string>, over: Partial<StepOptions> = {}) => harness.run(runId, { 'check-run': 'off', ...inputs }, { workspace, ...over });

const ourComment = () => harness.gh.comments.get(42)!.filter((c) => c.user.login === 'github-actions[bot]').at(-1)!.body;

beforeAll(async () => {
  workspace = tempDir('ata-ws-');
  cpSync('examples', join(workspace, 'traces'), { recursive: true });
  harness.gh.comments.set(42, []);
  // The base branch's report: the examples, 3 errors.
  const base = await run(101, { comment: 'false' }, pushToMain());
  expect(base.outputs['verdict']).toBe('❌ 3 errors');
  harness.gh.runs.push({ id: 101, head_branch: 'main', head_sha: 'a'.repeat(40), head_repository: { full_name: 'octo-org/agent-app' } });
}, 120_000);

describe('the verdict of the bundled Action', () => {
  it('traces that match nothing: exit 1 at the defaults, the title says nothing was audited, no "Fixed" line', async () => {
    const result = await run(102, { traces: 'no-such-folder/**/*.jsonl', upload: 'false' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error::agent-trace-audit: ⚠️ nothing audited: no trace file was found (fail-on-empty is true)');
    const body = ourComment();
    expect(body.split('\n')[0]).toBe('## agent-trace-audit: ⚠️ nothing audited: no trace file was found');
    expect(body).not.toContain('Fixed');
    expect(body).not.toMatch(/passed/i);
    expect(body).toContain('_Not compared with the base branch: nothing was audited._');
    expect(result.summary).toContain('⚠️ nothing audited: no trace file was found');
    expect(result.outputs).toMatchObject({ conclusion: 'failure', 'fixed-findings': '0', 'new-findings': '0' });
    // fail-on-empty: false passes, and says the same.
    const allowed = await run(103, { traces: 'no-such-folder/**/*.jsonl', upload: 'false', 'fail-on-empty': 'false' });
    expect(allowed.code).toBe(0);
    expect(allowed.outputs['verdict']).toBe('⚠️ nothing audited: no trace file was found');
  });

  it('gate new (the default): the base branch\'s errors do not fail the pull request; a new error does; gate all fails on all', async () => {
    const same = await run(104, { upload: 'false' });
    expect(same.code).toBe(0);
    expect(same.outputs).toMatchObject({ conclusion: 'success', verdict: '✅ no new findings (3 existing errors)', 'new-findings': '0', 'new-errors': '0', 'fixed-findings': '0', errors: '3' });
    expect(ourComment().split('\n')[0]).toBe('## agent-trace-audit: ✅ no new findings (3 existing errors)');

    cpSync('test/github/fixtures/pr-traces', join(workspace, 'traces/pr'), { recursive: true });
    cpSync('examples/dirty/span-log-orphan.jsonl', join(workspace, 'traces/pr/orphan-again.jsonl'));
    const added = await run(105, { upload: 'false' });
    expect(added.code).toBe(1);
    const newFindings = Number(added.outputs['new-findings']);
    expect(added.outputs['new-errors']).toBe('1');
    expect(newFindings).toBeGreaterThan(1);
    expect(added.outputs['verdict']).toBe(`❌ 1 new error (${added.outputs['errors']} errors in all)`);
    expect(ourComment().split('\n')[0]).toBe(`## agent-trace-audit: ${added.outputs['verdict']}`);
    expect(added.summary).toContain(added.outputs['verdict']!);

    const all = await run(106, { upload: 'false', gate: 'all' });
    expect([all.code, all.outputs['verdict']]).toEqual([1, `❌ ${all.outputs['errors']} errors`]);
  });
});
