import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getOctokit } from '@actions/github';
import { tempDir } from '../../helpers.js';
import type { FakeCheckRun } from '../fake-checks.js';
import { PR_EVENT, TOKEN, useActionHarness, type StepOptions } from '../support/action-harness.js';

// The bundled Action (dist/index.js) run as the runner runs it, against the
// loopback GitHub with its Checks API (50 annotations per request, 422 past that).
//
// The workspace: three trace files of the repository and one more in an
// artifact. Counted with a few lines of python over the files (tool_call records
// without a tool_result, tool_result records without a call, calls before the
// last llm span, one catalog-missing note per file with calls):
//   traces/orphan-calls-a.jsonl     150 orphan-call errors, 150 continued-while-outstanding warnings, 1 note
//   traces/orphan-calls-b.jsonl      70 errors, 70 warnings, 1 note (call b7 carries an AWS key id and a U+202E)
//   traces/unmatched-results.jsonl  100 unmatched-result errors
//   agent-traces-cr/artifact-unmatched.jsonl (artifact) 1 unmatched-result error
// 321 errors, 220 warnings, 2 notes: 543 findings, 542 of them in repository files.
const FIXTURES = 'test/github/fixtures/check-run';
const HEAD = '5f0c3c0b9d6e5b3a2f1e0d9c8b7a6f5e4d3c2b1a';
/** GITHUB_SHA on a pull_request event: the merge commit, which a check run must never go on. */
const MERGE_SHA = '9'.repeat(40);

const harness = useActionHarness();
let workspace: string;

function prWith(headSha: string, number: number) {
  const pr = PR_EVENT['pull_request'] as { head: object };
  return { ...PR_EVENT, number, pull_request: { ...pr, number, head: { ...pr.head, sha: headSha } } };
}

const run = (runId: number, inputs: Record<string, string>, over: Partial<StepOptions> = {}) =>
  harness.run(runId, { baseline: 'off', upload: 'false', comment: 'false', traces: 'traces/**', artifacts: 'agent-traces-cr', ...inputs }, { workspace, env: { GITHUB_SHA: MERGE_SHA }, ...over });

const checkRequests = () => harness.gh.requests.filter((r) => r.path.includes('/check-runs')).map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`);
const onCommit = (sha: string) => harness.gh.checks.runs.filter((r) => r.head_sha === sha);
const levels = (run: FakeCheckRun) => run.annotations.map((a) => a.annotation_level);
const workflowCommandAnnotations = (stdout: string) => stdout.split('\n').filter((line) => /^::(error|warning|notice) (title|file)=/.test(line));
const repeat = <T>(value: T, n: number) => Array.from({ length: n }, () => value);

beforeAll(async () => {
  workspace = tempDir('ata-check-ws-');
  for (const name of ['orphan-calls-a.jsonl', 'orphan-calls-b.jsonl', 'unmatched-results.jsonl']) cpSync(join(FIXTURES, name), join(workspace, 'traces', name));
  for (const runId of [900, 901, 902, 903, 904]) await harness.front.seed(runId, 'agent-traces-cr', { 'artifact-unmatched.jsonl': join(FIXTURES, 'artifact-unmatched.jsonl') });
}, 60_000);

describe('check run of the bundled action against the loopback Checks API', () => {
  it('the loopback Checks API refuses what GitHub refuses: 51 annotations in one request, a missing summary', async () => {
    const api = getOctokit(TOKEN, { baseUrl: harness.gh.url });
    const annotation = { path: 'a.jsonl', start_line: 1, end_line: 1, annotation_level: 'failure' as const, message: 'm' };
    const create = (count: number) => api.rest.checks.create({ owner: 'octo-org', repo: 'agent-app', name: 'probe', head_sha: '2'.repeat(40), output: { title: 't', summary: 's', annotations: repeat(annotation, count) } });
    await expect(create(51)).rejects.toMatchObject({ status: 422 });
    const made = await create(50);
    expect(made.status).toBe(201);
    await expect(api.rest.checks.update({ owner: 'octo-org', repo: 'agent-app', check_run_id: made.data.id, output: { title: 't', annotations: [annotation] } as never })).rejects.toMatchObject({ status: 422 });
    expect(onCommit('2'.repeat(40)).map((r) => r.annotations.length)).toEqual([50]);
  });

  it('543 findings: one check run on the PR head (not the merge commit), failure, every repository finding annotated 50 per request, most severe first', async () => {
    harness.gh.requests.length = 0;
    const result = await run(900, {});
    expect(result.code).toBe(1);
    expect(result.outputs).toMatchObject({ findings: '543', errors: '321', warnings: '220', notes: '2', conclusion: 'failure' });
    expect(onCommit(MERGE_SHA)).toEqual([]);
    const runs = onCommit(HEAD);
    expect(runs.length).toBe(1);
    const check = runs[0]!;
    expect(check).toMatchObject({ name: 'agent-trace-audit', status: 'completed', conclusion: 'failure', details_url: 'https://github.com/octo-org/agent-app/actions/runs/900' });
    // The one-line verdict (no baseline here: gate new judges all findings).
    expect(check.output.title).toBe('❌ 321 errors');
    expect(result.outputs['check-run-url']).toBe(`https://github.com/octo-org/agent-app/runs/${check.id}`);
    // One create and ten updates: 10 × 50 + 42 = 542 annotations, in severity order.
    expect(checkRequests()).toEqual(['GET /repos/octo-org/agent-app/commits/' + HEAD + '/check-runs', 'POST /repos/octo-org/agent-app/check-runs', ...repeat(`PATCH /repos/octo-org/agent-app/check-runs/${check.id}`, 10)]);
    expect(check.batches).toEqual([...repeat(50, 10), 42]);
    expect(levels(check)).toEqual([...repeat('failure', 320), ...repeat('warning', 220), ...repeat('notice', 2)]);
    const perFile = new Map<string, number>();
    for (const a of check.annotations) perFile.set(a.path, (perFile.get(a.path) ?? 0) + 1);
    expect(Object.fromEntries(perFile)).toEqual({ 'traces/orphan-calls-a.jsonl': 301, 'traces/orphan-calls-b.jsonl': 141, 'traces/unmatched-results.jsonl': 100 });
    expect(check.annotations[0]).toEqual({
      path: 'traces/orphan-calls-a.jsonl',
      start_line: 1,
      end_line: 1,
      annotation_level: 'failure',
      title: 'orphan-call',
      message: "call 'a0' to 'grep' has no result (the model kept generating afterwards)",
      raw_details: expect.stringMatching(/^run run-a, call a0, tool grep, fingerprint [0-9a-f]{16}$/),
    });
    // The trace text passed the sanitizer: the key is redacted, the bidi override gone.
    const b7 = check.annotations.filter((a) => a.path === 'traces/orphan-calls-b.jsonl' && a.start_line === 8);
    expect(b7.map((a) => a.message)).toEqual([
      "call 'b7 key [REDACTED:aws-access-key]' to 'grep' has no result (the model kept generating afterwards)",
      "the model produced 1 llm span(s) while call 'b7 key [REDACTED:aws-access-key]' to 'grep' was outstanding (first at line 71) and no result ever arrived",
    ]);
    expect(JSON.stringify(harness.gh.requests)).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(JSON.stringify(harness.gh.requests)).not.toMatch(/\u202e|\\u202e/i);
    // The artifact file is not in the repository: listed in the summary, not annotated.
    expect(check.output.summary.length).toBeLessThanOrEqual(65_535);
    expect(check.output.summary).toContain('**Annotations:** 542 of 543 finding(s), most severe first.');
    expect(check.output.summary).toContain('**Not annotated** (1 finding(s) in files that are not committed at the head commit: read from an artifact, written during the run, or inside an archive):');
    expect(check.output.summary).toContain('| error | `unmatched-result` | `agent-traces-cr/artifact-unmatched.jsonl:1` |');
    expect(check.output.summary).toContain('**321** error(s), **220** warning(s), **2** note(s); read 4 files');
    // The check run carries the annotations: none as workflow commands, and one log line says where they went.
    expect(workflowCommandAnnotations(result.stdout)).toEqual([]);
    expect(result.stdout.match(/check run created on 5f0c3c0b9d6e: https:\S+ \(542 annotation\(s\) sent, 542 in all\)/g)?.length).toBe(1);
  });

  it('rerun on the same commit: the same check run is updated in place, no annotation is sent twice', async () => {
    harness.gh.requests.length = 0;
    const before = onCommit(HEAD)[0]!;
    const result = await run(901, { 'fail-on': 'never' });
    expect(result.code).toBe(0);
    expect(onCommit(HEAD).length).toBe(1);
    expect(checkRequests()).toEqual([`GET /repos/octo-org/agent-app/commits/${HEAD}/check-runs`, `PATCH /repos/octo-org/agent-app/check-runs/${before.id}`]);
    const after = onCommit(HEAD)[0]!;
    expect(after.id).toBe(before.id);
    expect(after.conclusion).toBe('success');
    expect(after.details_url).toBe('https://github.com/octo-org/agent-app/actions/runs/901');
    expect(after.annotations.length).toBe(542);
    expect(result.stdout).toContain(`check run updated on 5f0c3c0b9d6e: https://github.com/octo-org/agent-app/runs/${before.id} (0 annotation(s) sent, 542 in all)`);
  });

  it('capped: check-run-max-annotations 120 sends the 120 most severe, and the summary says how many were left out', async () => {
    const sha = 'c'.repeat(40);
    const result = await run(902, { 'check-run-max-annotations': '120' }, { event: prWith(sha, 48) });
    expect(result.code).toBe(1);
    const check = onCommit(sha)[0]!;
    expect(check.batches).toEqual([50, 50, 20]);
    expect(levels(check)).toEqual(repeat('failure', 120));
    expect(check.annotations.map((a) => `${a.path}:${a.start_line}`).slice(0, 3)).toEqual(['traces/orphan-calls-a.jsonl:1', 'traces/orphan-calls-a.jsonl:2', 'traces/orphan-calls-a.jsonl:3']);
    expect(check.output.summary).toContain('**Annotations:** 120 of 543 finding(s), most severe first (the 422 more in the repository are over the cap `check-run-max-annotations`).');
  });

  it('read-only token (fork pull request): a 403 falls back to workflow-command annotations with one log line', async () => {
    harness.gh.checks.forbidWrites = true;
    try {
      const sha = 'd'.repeat(40);
      const result = await run(903, { 'fail-on': 'never' }, { event: prWith(sha, 49) });
      expect(result.code).toBe(0);
      expect(onCommit(sha)).toEqual([]);
      const said = result.stdout.split('\n').filter((line) => line.includes('check run'));
      expect(said).toEqual([
        'no check run: the token cannot write checks (HTTP 403; a fork pull request gets a read-only token, otherwise grant permissions checks: write); findings go out as workflow-command annotations instead',
      ]);
      const commands = workflowCommandAnnotations(result.stdout);
      expect(commands).toContain("::error title=orphan-call,file=traces/orphan-calls-a.jsonl,line=1::call 'a0' to 'grep' has no result (the model kept generating afterwards)");
      expect(commands.filter((c) => c.startsWith('::error ')).length).toBeGreaterThan(0);
    } finally {
      harness.gh.checks.forbidWrites = false;
    }
  });

  it('rate limits: a Retry-After is waited for; a wait too long stops the annotations with one warning, the job is not failed for it', { timeout: 60_000 }, async () => {
    const sha = 'e'.repeat(40);
    harness.gh.checks.writes = 0;
    harness.gh.checks.rateLimits.set(2, { 'retry-after': '1' });
    harness.gh.checks.rateLimits.set(4, { 'retry-after': '3600' });
    harness.gh.requests.length = 0;
    const started = Date.now();
    const result = await run(904, { 'fail-on': 'never' }, { event: prWith(sha, 50) });
    harness.gh.checks.rateLimits.clear();
    expect(result.code).toBe(0);
    const check = onCommit(sha)[0]!;
    // Writes: POST, PATCH (403, retried after 1 s), PATCH, PATCH (403: wait 3600 s, so stop).
    expect(checkRequests().filter((r) => !r.startsWith('GET'))).toEqual(['POST /repos/octo-org/agent-app/check-runs', ...repeat(`PATCH /repos/octo-org/agent-app/check-runs/${check.id}`, 3)]);
    expect(check.batches).toEqual([50, 50]);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const warnings = result.stdout.split('\n').filter((line) => line.startsWith('::warning'));
    expect(warnings).toEqual(['::warning::check run stopped by the rate limit after 100 of 542 annotation(s): GitHub asked to wait 3600 s (rate limit)']);
    expect(workflowCommandAnnotations(result.stdout)).toEqual([]);
  });

  it('rerun after a stop: the same check run gets only the annotations it is missing', async () => {
    const sha = 'e'.repeat(40);
    const before = onCommit(sha)[0]!;
    expect(before.annotations.length).toBe(100);
    harness.gh.requests.length = 0;
    const result = await run(904, { 'fail-on': 'never' }, { event: prWith(sha, 50) });
    expect(result.code).toBe(0);
    expect(onCommit(sha).length).toBe(1);
    expect(checkRequests().filter((r) => !r.startsWith('GET'))).toEqual(repeat(`PATCH /repos/octo-org/agent-app/check-runs/${before.id}`, 9));
    const after = onCommit(sha)[0]!;
    expect(after.batches).toEqual([50, 50, ...repeat(50, 8), 42]);
    expect(levels(after)).toEqual([...repeat('failure', 320), ...repeat('warning', 220), ...repeat('notice', 2)]);
    expect(new Set(after.annotations.map((a) => `${a.path}:${a.start_line}:${a.title}`)).size).toBe(542);
  });

  it('rerun with different findings: the old check run is marked superseded (its annotations cannot be removed), a new one created', async () => {
    const old = onCommit(HEAD)[0]!;
    const result = await run(905, { traces: 'traces/unmatched-results.jsonl', artifacts: '' });
    expect(result.code).toBe(1);
    const runs = onCommit(HEAD);
    expect(runs.map((r) => [r.id, r.conclusion, r.output.title])).toEqual([
      [old.id, 'neutral', 'Superseded'],
      [expect.any(Number), 'failure', '❌ 100 errors'],
    ]);
    expect(runs[1]!.annotations.length).toBe(100);
    // The next rerun with the same findings updates the new one.
    const again = await run(905, { traces: 'traces/unmatched-results.jsonl', artifacts: '' });
    expect(again.code).toBe(1);
    expect(onCommit(HEAD).length).toBe(2);
    expect(again.stdout).toContain(`check run updated on 5f0c3c0b9d6e: https://github.com/octo-org/agent-app/runs/${runs[1]!.id} (0 annotation(s) sent, 100 in all)`);
  });

  it('merge: one check run for all shards; a shard with check-run on gets its own, named with its shard id', async () => {
    const sha = '1'.repeat(40);
    const event = prWith(sha, 51);
    const shardA = await run(910, { shard: 'a', traces: 'traces/orphan-calls-b.jsonl', artifacts: '', upload: 'true' }, { event });
    const shardB = await run(910, { shard: 'b', traces: 'traces/unmatched-results.jsonl', artifacts: '', upload: 'true', 'check-run': 'off' }, { event });
    expect([shardA.code, shardB.code]).toEqual([1, 1]);
    expect(workflowCommandAnnotations(shardA.stdout)).toEqual([]);
    expect(workflowCommandAnnotations(shardB.stdout).length).toBeGreaterThan(0);
    const merged = await run(910, { mode: 'merge', traces: '', artifacts: '' }, { event });
    expect(merged.code).toBe(1);
    expect(merged.outputs).toMatchObject({ findings: '241', errors: '170', warnings: '70', notes: '1' });
    const runs = onCommit(sha);
    expect(runs.map((r) => r.name)).toEqual([expect.stringMatching(/^agent-trace-audit \(a-[0-9a-f]{8}\)$/), 'agent-trace-audit']);
    expect(runs[0]!.annotations.length).toBe(141);
    const all = runs[1]!;
    expect(all).toMatchObject({ conclusion: 'failure', output: { title: '❌ 170 errors' } });
    expect(all.batches).toEqual([50, 50, 50, 50, 41]);
    expect(levels(all)).toEqual([...repeat('failure', 170), ...repeat('warning', 70), 'notice']);
    expect(new Set(all.annotations.map((a) => a.path))).toEqual(new Set(['traces/orphan-calls-b.jsonl', 'traces/unmatched-results.jsonl']));
    expect(workflowCommandAnnotations(merged.stdout)).toEqual([]);
  });

  it('publish on workflow_run from a fork: the check run goes on the fork PR head the comment is matched by, not on GITHUB_SHA', async () => {
    const forkHead = 'f0'.repeat(20);
    const defaultBranchHead = 'ab'.repeat(20);
    harness.gh.pulls.push({ number: 52, head: { sha: forkHead, ref: 'patch-2', label: 'forker:patch-2' } });
    harness.gh.comments.set(52, []);
    const event = {
      action: 'completed',
      workflow_run: { id: 910, head_sha: forkHead, head_branch: 'patch-2', conclusion: 'failure', pull_requests: [], head_repository: { full_name: 'forker/agent-app', owner: { login: 'forker' } } },
      repository: PR_EVENT['repository'],
    };
    const result = await run(
      911,
      { mode: 'publish', traces: '', artifacts: '', comment: '' },
      { eventName: 'workflow_run', event, workspace: tempDir('ata-publish-'), env: { GITHUB_SHA: defaultBranchHead }, workflowRef: 'octo-org/agent-app/.github/workflows/publish.yml@refs/heads/main' },
    );
    expect(result.code).toBe(1);
    expect(harness.gh.comments.get(52)!.length).toBe(1);
    expect(onCommit(defaultBranchHead)).toEqual([]);
    const runs = onCommit(forkHead);
    expect(runs.length).toBe(1);
    expect(runs[0]).toMatchObject({ name: 'agent-trace-audit', conclusion: 'failure', details_url: 'https://github.com/octo-org/agent-app/actions/runs/911' });
    // The publish job has no checkout: no file is known to be committed, so none is annotated; the summary lists them.
    expect(runs[0]!.annotations.length).toBe(0);
    expect(runs[0]!.output.summary).toContain('**Not annotated** (241 finding(s) in files that are not committed at the head commit');
    expect(result.outputs['check-run-url']).toBe(`https://github.com/octo-org/agent-app/runs/${runs[0]!.id}`);
  });
});
