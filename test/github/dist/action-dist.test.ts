import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { readZip } from '../artifacts/read-zip.js';
import { PR_EVENT, pushToMain, useActionHarness, type StepOptions } from '../support/action-harness.js';
import { CMARK_GFM, runsWith } from '../../system-tools.js';

// The bundled Action (dist/index.js, built by `npm test`) run as the runner runs
// it, against a loopback GitHub REST + Twirp artifact service, with blobs in Azurite.
const GOLDEN = 'test/github/golden/comment-pr-42.md';

const harness = useActionHarness();
let workspace: string;

function workspaceWith(files: Record<string, string>): string {
  const dir = tempDir('ata-ws-');
  for (const [to, from] of Object.entries(files)) cpSync(from, join(dir, to), { recursive: true });
  return dir;
}

const run = (runId: number, inputs: Record<string, string>, over: Partial<StepOptions> = {}) => harness.run(runId, inputs, { workspace, ...over });

// Check runs are asserted in check-run-dist.test.ts.
const writes = () => harness.gh.requests.filter((r) => r.method !== 'GET' && !r.path.startsWith('/twirp/') && !r.path.includes('/check-runs'));

beforeAll(() => {
  workspace = workspaceWith({ traces: 'examples' });
});

describe('bundled action against loopback GitHub + Azurite', () => {
  it('push to main: audits, seals every trace, uploads report + sealed files through @actions/artifact, fails on errors', async () => {
    // On its worker threads, as from 48 MiB of traces (src/audit/engine/pool-plan.ts): the bundle is the workers' script too.
    const result = await run(101, { comment: 'false' }, { ...pushToMain(), env: { AGENT_TRACE_AUDIT_POOL_MIN_BYTES: '0' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('found 5 trace file(s): 5 native-jsonl');
    expect(result.stdout).toContain("::error::agent-trace-audit: ❌ 3 errors; failing on 'error' and above");
    expect(result.outputs).toMatchObject({ verdict: '❌ 3 errors', 'new-findings': '0', 'new-errors': '0', 'fixed-findings': '0' });
    expect(result.outputs).toMatchObject({ conclusion: 'failure', findings: '10', errors: '3', warnings: '2', notes: '5', 'comment-url': '', 'catalog-changed': 'false' });
    const artifact = harness.gh.artifacts.find((a) => a.runId === 101)!;
    expect(artifact.name).toBe('agent-trace-audit');
    expect(result.outputs['artifact-id']).toBe(String(artifact.id));
    expect(result.outputs['artifact-url']).toBe(`https://github.com/octo-org/agent-app/actions/runs/101/artifacts/${artifact.id}`);
    expect(result.outputs['artifact-digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.outputs['artifact-digest']).toBe(artifact.digest);
    const files = readZip(await harness.azurite.read(artifact.blob));
    // The report (JSON and HTML), the seal manifest, and each collected trace sealed with its checkpoint (in display-name order).
    const traces = ['traces/clean/span-log.jsonl', 'traces/dirty/boundary-payload-mutation.jsonl', 'traces/dirty/span-log-orphan.jsonl', 'traces/dirty/span-log-secret-in-trace.jsonl', 'traces/dirty/typed-events-unmatched.jsonl'];
    const sealed = traces.map((t, i) => `sealed/000${i + 1}/${basename(t, '.jsonl')}.sealed.jsonl`);
    expect([...files.keys()].sort()).toEqual(['agent-trace-audit-report.json', 'report.html', 'seal-manifest.json', ...sealed.flatMap((f) => [f, `${f}.seal.json`])].sort());
    const manifest = JSON.parse(files.get('seal-manifest.json')!.toString('utf8')) as { version: number; files: Array<{ file: string; finalDigest: string; sealed: string; checkpoint: string }> };
    expect(manifest.version).toBe(1);
    expect(manifest.files.map((f) => [f.file, f.sealed, f.checkpoint])).toEqual(traces.map((t, i) => [t, sealed[i], `${sealed[i]}.seal.json`]));
    const combined = createHash('sha256');
    for (const f of manifest.files) combined.update(`${f.finalDigest}  ${f.file}\n`);
    expect(result.outputs['seal-digest']).toBe(`sha256:${combined.digest('hex')}`);
    expect(result.summary).toContain(`Seal digest: \`${result.outputs['seal-digest']}\``);
    // Each sealed file, taken out of the artifact, passes `agent-trace-audit verify` with its checkpoint.
    const unpacked = tempDir('ata-unpacked-');
    for (const [name, bytes] of files) {
      mkdirSync(dirname(join(unpacked, name)), { recursive: true });
      writeFileSync(join(unpacked, name), bytes);
    }
    for (const [i, f] of manifest.files.entries()) {
      const checkpoint = JSON.parse(files.get(f.checkpoint)!.toString('utf8')) as { final_digest: string; source_sha256: string; github?: unknown; redactions?: Array<{ rule_id: string }> };
      expect(checkpoint.final_digest).toBe(f.finalDigest);
      // seal-redact (default true): the planted key's trace is sealed redacted, its source_sha256 over the redacted bytes.
      const redacted = f.file === 'traces/dirty/span-log-secret-in-trace.jsonl';
      expect([f.file, checkpoint.redactions?.map((r) => r.rule_id)]).toEqual([f.file, redacted ? ['aws-access-key'] : undefined]);
      const source = createHash('sha256').update(readFileSync(join(workspace, traces[i]!))).digest('hex');
      expect([f.file, checkpoint.source_sha256 === source]).toEqual([f.file, !redacted]);
      expect(checkpoint.github).toEqual({ repository: 'octo-org/agent-app', run_id: '101' });
      const verified = spawnSync(process.execPath, [resolve('dist/cli.js'), 'verify', f.sealed, '--checkpoint', f.checkpoint], { cwd: unpacked, encoding: 'utf8' });
      expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    }
    // The whole artifact, in one command, against the run's seal digest; no file of it holds the planted key.
    const whole = spawnSync(process.execPath, [resolve('dist/cli.js'), 'verify', '.', '--seal-digest', result.outputs['seal-digest']!], { cwd: unpacked, encoding: 'utf8' });
    expect([whole.status, whole.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, 'total: 5 file(s): 5 intact; seal digest matches: intact']);
    for (const [name, bytes] of files) expect([name, bytes.toString('latin1').includes('AKIAIOSFODNN7EXAMPLE')]).toEqual([name, false]);
    expect(result.summary).toContain(`Seal digest: \`${result.outputs['seal-digest']}\` (1 secret value(s) redacted in 1 file(s) before sealing). Verify: \`gh run download 101 -n agent-trace-audit -D agent-trace-audit && agent-trace-audit verify agent-trace-audit --seal-digest ${result.outputs['seal-digest']}\``);
    // A sealed file changed after the fact fails verification.
    const first = join(unpacked, manifest.files[0]!.sealed);
    writeFileSync(first, readFileSync(first, 'utf8').replace('"kind"', '"kind" '));
    expect(spawnSync(process.execPath, [resolve('dist/cli.js'), 'verify', manifest.files[0]!.sealed, '--checkpoint', manifest.files[0]!.checkpoint], { cwd: unpacked }).status).toBe(1);
    const stored = JSON.parse(files.get('agent-trace-audit-report.json')!.toString('utf8'));
    expect(stored.summary.findings).toEqual({ error: 3, warning: 2, note: 5 });
    expect(stored.files.map((f: { path: string }) => f.path)).toEqual(traces);
    expect(stored.catalogs.map((c: { tools: Array<{ name: string }> }) => c.tools.map((t) => t.name))).toEqual([['read_file'], ['grep', 'pytest', 'read_file']]);
    expect(readFileSync(result.outputs['report-json']!, 'utf8')).toBe(files.get('agent-trace-audit-report.json')!.toString('utf8'));
    expect(result.summary).toContain('| `orphan-call` | 🔴&nbsp;error | 1 | `traces/dirty/span-log-orphan.jsonl:2` |');
    // The planted AWS key is found, and neither the summary nor the log carries it.
    expect(result.summary).toContain('| `secret-in-trace` | 🔴&nbsp;error | 1 | `traces/dirty/span-log-secret-in-trace.jsonl:1` |');
    // Guidance: one collapsed block per rule, below the table.
    expect(result.summary).toContain('<details><summary><code>orphan-call</code>: ');
    expect(result.summary).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(result.stdout).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(harness.gh.runs.length).toBe(0);
    harness.gh.runs.push({ id: 101, head_branch: 'main', head_sha: 'a'.repeat(40), head_repository: { full_name: 'octo-org/agent-app' } });
  });

  it('pull request: finds the baseline artifact, creates one comment (golden) past 100 comments of others, shows exactly the new and fixed findings', async () => {
    const others = Array.from({ length: 100 }, (_, i) => harness.gh.comment(42, i === 7 ? 'mimic <!-- agent-trace-audit:comment -->' : `comment ${i}`, i === 7 ? 'mallory' : 'mona'));
    harness.gh.comments.set(42, others);
    // The pull request adds a run whose catalog offers two new tools (one named like a mention), with failures and a recovery,
    // and deletes the payload-mutation example.
    const prWorkspace = workspaceWith({ traces: 'examples', 'traces/pr': 'test/github/fixtures/pr-traces' });
    rmSync(join(prWorkspace, 'traces/dirty/boundary-payload-mutation.jsonl'));
    // check-run off: this test reads the workflow-command annotations (the check run's are tested in check-run-dist.test.ts).
    const result = await run(102, { 'sarif-file': 'out/results.sarif', 'check-run': 'off' }, { workspace: prWorkspace });
    // gate: new (the default): the 3 errors are the base branch's; the PR adds warnings and notes only.
    expect(result.code).toBe(0);
    expect(result.outputs).toMatchObject({ conclusion: 'success', verdict: '✅ no new errors (2 new warnings; 1 new note; 3 existing errors)', 'new-findings': '3', 'new-errors': '0', 'fixed-findings': '2' });
    expect(result.outputs).toMatchObject({ findings: '11', errors: '3', warnings: '3', notes: '5', 'catalog-changed': 'true' });
    const created = writes();
    expect(created.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /repos/octo-org/agent-app/issues/42/comments']);
    const body = (created[0]!.body as { body: string }).body;
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, body);
    expect(body).toBe(readFileSync(GOLDEN, 'utf8'));
    // The commits: the PR head and base of the event.
    expect(body).toContain('Head `5f0c3c0` compared with base `9a8b7c6`.');
    // New: exactly the findings of the added file (fingerprints name the file); fixed: exactly those of the deleted one in the base report.
    const head = JSON.parse(readFileSync(result.outputs['report-json']!, 'utf8')) as { findings: Array<{ file: string; ruleId: string }> };
    const baseArtifact = harness.gh.artifacts.find((a) => a.runId === 101)!;
    const base = JSON.parse(readZip(await harness.azurite.read(baseArtifact.blob)).get('agent-trace-audit-report.json')!.toString('utf8')) as typeof head;
    const added = head.findings.filter((f) => f.file === 'traces/pr/recovery.jsonl');
    const fixed = base.findings.filter((f) => f.file === 'traces/dirty/boundary-payload-mutation.jsonl');
    expect([added.length, fixed.length]).toEqual([3, 2]);
    expect(body).toContain(`**New in this PR:** ${added.length} finding(s):`);
    expect(body).toContain('**Fixed in this PR:** 2 finding(s): `payload-mutation` ×1, `catalog-missing` ×1.');
    expect(body).toContain('| [`payload-mutation`][payload-mutation] | 🟠 warning | 0 | 0 | −1 |');
    expect(body).toContain('| [`unused-tool`][unused-tool] | 🔵 note | 3 | +1 | 0 |');
    // The retries after failed calls are retries (retry-storm), not redundant calls (seed 001).
    expect(body).not.toContain('redundant-call');
    expect(body).toContain(
      [
        'Unmapped error share: **100%** of 2 failed result(s) carry a catch-all code (0 carry no code).',
        'Recovery attempts after an error (slow-recovery): median 2, p90 2, max 2 over 1 recovered episode(s).',
      ].join('\n'),
    );
    expect(body).toContain('**Base branch** (run 101 on main):\n- tools added (2): `@octocat`, `deploy`');
    expect(body).toContain('- recovery attempts (`slow-recovery`): none recovered → median 2, p90 2, max 2\n');
    expect(body.length).toBeLessThanOrEqual(12_000);
    // The job summary keeps the full detail: every new finding, the triage table with causes, the findings list.
    expect(result.summary).toContain('- tools added (2): `@octocat`, `deploy`');
    expect(result.summary).toContain('**New in this PR:** 3 finding(s):');
    // Compared with the base branch: the rule table has a New column.
    expect(result.summary).toMatch(/\| `orphan-call` \| 🔴&nbsp;error \| 1 \| 0 \| `traces\/dirty\/span-log-orphan\.jsonl:2` \|/);
    expect(result.summary).toContain('<details><summary>Findings</summary>');
    // Rendered by GitHub's renderer, the tool named like a mention stays code; the only links are ours.
    if (runsWith(CMARK_GFM)) {
      const html = spawnSync('cmark-gfm', ['-e', 'table', '-e', 'autolink'], { input: body, encoding: 'utf8' }).stdout;
      expect(html).toContain('<code>@octocat</code>');
      expect(html.replace(/<code>[\s\S]*?<\/code>/g, '')).not.toContain('@octocat');
      const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);
      const artifactUrl = `https://github.com/octo-org/agent-app/actions/runs/102/artifacts/${harness.gh.artifacts.find((a) => a.runId === 102)!.id}`;
      expect(hrefs).toContain('https://github.com/octo-org/agent-app/actions/runs/102');
      expect(hrefs).toContain(artifactUrl);
      expect(hrefs).toContain('https://github.com/octo-org/agent-app/blob/5f0c3c0b9d6e5b3a2f1e0d9c8b7a6f5e4d3c2b1a/traces/pr/recovery.jsonl#L2');
      for (const href of hrefs) {
        expect(href).toMatch(/^https:\/\/github\.com\/(agent-trace-audit\/agent-trace-audit\/blob\/main\/docs\/rules\/[a-z-]+\.md|octo-org\/agent-app\/actions\/runs\/102(\/artifacts\/\d+)?|octo-org\/agent-app\/blob\/5f0c3c0b9d6e5b3a2f1e0d9c8b7a6f5e4d3c2b1a\/traces\/pr\/recovery\.jsonl#L\d)$/);
      }
    }
    expect(harness.gh.comments.get(42)![7]!.body).toBe('mimic <!-- agent-trace-audit:comment -->');
    expect(result.outputs['comment-url']).toMatch(/^https:\/\/github\.com\/octo-org\/agent-app\/pull\/42#issuecomment-\d+$/);
    const sarifResults = JSON.parse(readFileSync(join(prWorkspace, 'out/results.sarif'), 'utf8')).runs[0].results as Array<{ baselineState: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
    expect(sarifResults.length).toBe(11);
    // Compared with the base branch: the added file's findings are new, every other one unchanged (fixed ones are not results).
    expect(sarifResults.filter((r) => r.baselineState === 'new').map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual(added.map((f) => f.file));
    expect(sarifResults.filter((r) => r.baselineState === 'unchanged').length).toBe(11 - added.length);
    expect(result.outputs['sarif-file']).toBe(join(prWorkspace, 'out/results.sarif'));
    // The baseline report was downloaded to RUNNER_TEMP and removed once read.
    expect(result.runnerTemp.filter((name) => name.startsWith('ata-download-'))).toEqual([]);
    // Annotations: errors first, the new findings before the old ones of their level.
    const annotations = result.stdout.split('\n').filter((l) => /^::(error|warning|notice) /.test(l));
    expect(annotations.slice(0, 3).every((l) => l.startsWith('::error '))).toBe(true);
    expect(annotations.find((l) => l.startsWith('::warning '))).toContain('title=retry-storm (new in this PR),file=traces/pr/recovery.jsonl,line=2::');
    expect(annotations.filter((l) => l.startsWith('::warning ')).map((l) => /title=([^,]*)/.exec(l)![1]).slice(0, 4)).toEqual(['retry-storm (new in this PR)', 'unmapped-error-share (new in this PR)', 'continued-while-outstanding']);
  });

  it('rerun: updates the same comment in place, then leaves it alone when unchanged', async () => {
    harness.gh.requests.length = 0;
    const first = await run(103, { upload: 'false', baseline: 'off' });
    expect(first.code).toBe(1);
    const patched = writes();
    expect(patched.map((r) => r.method)).toEqual(['PATCH']);
    const ours = harness.gh.comments.get(42)!.filter((c) => c.user.login === 'github-actions[bot]');
    expect(ours.length).toBe(1);
    expect(patched[0]!.path).toBe(`/repos/octo-org/agent-app/issues/comments/${ours[0]!.id}`);
    expect(harness.gh.requests.filter((r) => r.path.includes('/issues/42/comments') && r.method === 'GET').map((r) => new URL(r.path, harness.gh.url).searchParams.get('page') ?? '1')).toEqual(['1', '2']);
    harness.gh.requests.length = 0;
    const second = await run(103, { upload: 'false', baseline: 'off' });
    expect(second.code).toBe(1);
    expect(writes()).toEqual([]);
    expect(second.outputs['comment-url']).toBe(ours[0]!.html_url);
  });

  it('read-only token (fork, Dependabot): the comment is a warning with the two-workflow hint; fail-on decides the exit code', async () => {
    harness.gh.forbidCommentWrites = true;
    try {
      const event = { ...PR_EVENT, number: 43, pull_request: { ...(PR_EVENT['pull_request'] as object), number: 43 } };
      const result = await run(104, { 'fail-on': 'never', upload: 'false', baseline: 'off' }, { event });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('::warning::agent-trace-audit could not comment (HTTP 403). This token cannot write to the pull request');
      expect(result.stdout).toContain('mode: publish');
      expect(result.outputs).toMatchObject({ conclusion: 'success', 'comment-url': '', findings: '10', errors: '3' });
      expect(result.summary).toContain('## agent-trace-audit');
    } finally {
      harness.gh.forbidCommentWrites = false;
    }
  });

  it('artifact storage quota used up: a warning, the summary and outputs are still written, fail-on decides', async () => {
    harness.gh.quotaExhausted = true;
    try {
      const result = await run(106, { comment: 'false', baseline: 'off', 'fail-on': 'never' });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('::warning::agent-trace-audit could not upload the artifact "agent-trace-audit": Failed to CreateArtifact: Artifact storage quota has been hit. Unable to upload any new artifacts.');
      expect(result.outputs).toMatchObject({ conclusion: 'success', errors: '3', 'artifact-id': '', 'artifact-url': '', 'artifact-digest': '' });
      // Sealing does not depend on the upload: the digest is still an output and in the summary.
      expect(result.outputs['seal-digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(result.summary).toContain(`Seal digest: \`${result.outputs['seal-digest']}\``);
      expect(result.summary).toContain('Details: [workflow run](https://github.com/octo-org/agent-app/actions/runs/106).');
    } finally {
      harness.gh.quotaExhausted = false;
    }
  });

  it('comment-mode on-findings: no comment is created for a clean run, a stale one is updated', async () => {
    const clean = { ...PR_EVENT, number: 46, pull_request: { ...(PR_EVENT['pull_request'] as object), number: 46 } };
    harness.gh.comments.set(46, []);
    const inputs = { 'comment-mode': 'on-findings', traces: 'traces/clean/**', upload: 'false', baseline: 'off' };
    const first = await run(107, inputs, { event: clean });
    expect(first.code).toBe(0);
    expect(harness.gh.comments.get(46)).toEqual([]);
    harness.gh.comments.set(46, [harness.gh.comment(46, 'old findings\n<!-- agent-trace-audit:comment -->', 'github-actions[bot]')]);
    const second = await run(107, inputs, { event: clean });
    expect(second.code).toBe(0);
    expect(harness.gh.comments.get(46)!.length).toBe(1);
    expect(harness.gh.comments.get(46)![0]!.body).toContain('No findings in 1 tool call and 1 result read from 1 file.');
  });

  it('a heap setting that is not a percentage fails the step with what to write instead', async () => {
    const result = await run(108, { upload: 'false', comment: 'false', baseline: 'off' }, { env: { AGENT_TRACE_AUDIT_HEAP_GROWTH: 'lots' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error::config: AGENT_TRACE_AUDIT_HEAP_GROWTH must be a whole number from 0 to 1000 (percent; 0 leaves V8\'s own choice), not "lots"');
  });

  it('baseline artifact whose digest does not match: "no baseline" said plainly', async () => {
    const base = harness.gh.artifacts.find((a) => a.runId === 101)!;
    const digest = base.digest;
    base.digest = `sha256:${'0'.repeat(64)}`;
    try {
      const result = await run(105, { upload: 'false', comment: 'false' });
      expect(result.summary).toContain('**Base branch:** no baseline (the baseline could not be read: artifact "agent-trace-audit" does not match its digest sha256:0000');
      expect(result.outputs['catalog-changed']).toBe('false');
      // Bytes that did not match their digest are not left on disk.
      expect(result.runnerTemp.filter((name) => name.startsWith('ata-download-'))).toEqual([]);
    } finally {
      base.digest = digest;
    }
  });

  it('matrix shards then merge: each shard uploads under its id; merge posts one comment for the run', async () => {
    const shardA = await run(200, { shard: '{"os":"ubuntu-latest","node":20}', traces: 'traces/dirty/span-log-orphan.jsonl', comment: 'false', baseline: 'off' });
    const shardB = await run(200, { shard: 'typed events', traces: 'traces/dirty/typed-events-unmatched.jsonl', comment: 'false', baseline: 'off' });
    expect([shardA.code, shardB.code]).toEqual([1, 1]);
    expect(harness.gh.artifacts.filter((a) => a.runId === 200).map((a) => a.name)).toEqual([
      expect.stringMatching(/^agent-trace-audit-20-ubuntu-latest-[0-9a-f]{8}$/),
      expect.stringMatching(/^agent-trace-audit-typed-events-[0-9a-f]{8}$/),
    ]);
    harness.gh.comments.set(44, []);
    const event = { ...PR_EVENT, number: 44, pull_request: { ...(PR_EVENT['pull_request'] as object), number: 44 } };
    const merged = await run(200, { mode: 'merge' }, { event });
    // gate: new against run 101's report: the shards' findings are all in it.
    expect(merged.code).toBe(0);
    // span-log-orphan: orphan-call, continued-while-outstanding, catalog-missing; typed-events-unmatched: unmatched-result, 2 × unused-tool.
    expect(merged.outputs).toMatchObject({ findings: '6', errors: '2', warnings: '1', notes: '3', conclusion: 'success', 'artifact-id': '', 'seal-digest': '', 'catalog-changed': 'false' });
    expect(harness.gh.comments.get(44)!.length).toBe(1);
    expect(merged.runnerTemp.filter((name) => name.startsWith('ata-download-'))).toEqual([]);
    expect(harness.gh.comments.get(44)![0]!.body).toContain('**2** error(s), **1** warning(s), **3** note(s); read 2 files, 2 tool calls');
    expect(harness.gh.comments.get(44)![0]!.body).toContain('<!-- agent-trace-audit:comment -->');
    // The base run audited all five examples; the two shards only two of them. The tools offered are the same.
    expect(harness.gh.comments.get(44)![0]!.body).toContain(
      '**Base branch** (run 101 on main):\n- `catalog-missing`: 3 → 1 (-2)\n- `payload-mutation`: 1 → 0 (-1)\n- `secret-in-trace`: 1 → 0 (-1)\n\n',
    );
  });

  it('publish on workflow_run: downloads the fork run report to temp, validates it, finds the PR by head, comments', async () => {
    harness.gh.pulls.push({ number: 45, head: { sha: 'f'.repeat(40), ref: 'patch-1', label: 'forker:patch-1' }, base: { sha: 'b'.repeat(40), ref: 'main' } });
    harness.gh.comments.set(45, []);
    const event = {
      action: 'completed',
      workflow_run: { id: 200, path: '.github/workflows/agents.yml', head_sha: 'f'.repeat(40), head_branch: 'patch-1', conclusion: 'failure', pull_requests: [], head_repository: { full_name: 'forker/agent-app', owner: { login: 'forker' } } },
      repository: PR_EVENT['repository'],
    };
    harness.gh.requests.length = 0;
    const result = await run(300, { mode: 'publish' }, { eventName: 'workflow_run', event, workspace: tempDir('ata-empty-') });
    // gate: new: nothing is new against the base branch's report.
    expect(result.code).toBe(0);
    expect(harness.gh.comments.get(45)!.length).toBe(1);
    const body = harness.gh.comments.get(45)![0]!.body;
    // The rule table lists only the rules this pull request changed: no `0 | 0` row.
    expect(body).not.toMatch(/\| 0 \| 0 \|$/m);
    expect(body).toMatch(/_\d+ more rule\(s\) with findings this PR did not change: in the \[job summary\]/);
    // Compared with the audited workflow's (agents.yml) report on the PR's base branch: run 101 audited all five examples, the shards two.
    expect(harness.gh.requests.some((r) => r.path.startsWith('/repos/octo-org/agent-app/actions/workflows/agents.yml/runs?'))).toBe(true);
    expect(body).toContain(`Head \`${'f'.repeat(7)}\` compared with base \`${'b'.repeat(7)}\`.`);
    expect(body).toContain('**New in this PR:** none.');
    expect(body).toContain('**Fixed in this PR:** 4 finding(s): `secret-in-trace` ×1, `payload-mutation` ×1, `catalog-missing` ×2.');
    // Nothing new, so no finding line links a file.
    expect(body).not.toContain('/octo-org/agent-app/blob/');
    expect(result.outputs['comment-url']).toBe(harness.gh.comments.get(45)![0]!.html_url);
  });
});
