import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/io/limits.js';
import { reportSchema } from '../../../src/report/schema.js';
import { readCheckpoint, verifyFile } from '../../../src/seal/index.js';
import { tempDir } from '../../helpers.js';
import { readZip } from './read-zip.js';
import { PR_EVENT, pushToMain, useActionHarness, type StepOptions } from '../support/action-harness.js';

// The bundled Action (dist/index.js) run as the runner runs it, reading trace
// artifacts that "other jobs" uploaded: this run's through the artifact
// service (Twirp, blobs in Azurite), another run's through the REST API.
const DIRTY = 'examples/dirty';
const WRONG = `sha256:${'0'.repeat(64)}`;

const harness = useActionHarness();
const run = (runId: number, inputs: Record<string, string>, over: Partial<StepOptions> = {}) =>
  harness.run(runId, { baseline: 'off', ...inputs }, { workspace: tempDir('ata-audit-job-'), ...pushToMain(), ...over });

const report = (path: string) => reportSchema.parse(JSON.parse(readFileSync(path, 'utf8')));

describe('bundled action collecting trace artifacts', () => {
  it('this run: audits the two good artifacts, names files by artifact, refuses the corrupt one, seals all it read', async () => {
    const one = await harness.front.seed(600, 'agent-traces-1', { 'run-a/span-log-orphan.jsonl': `${DIRTY}/span-log-orphan.jsonl`, 'stdout.txt': 'examples/README.md' });
    const two = await harness.front.seed(600, 'agent-traces-2', { 'typed-events-unmatched.jsonl': `${DIRTY}/typed-events-unmatched.jsonl`, 'clean/span-log.jsonl': 'examples/clean/span-log.jsonl' });
    await harness.front.seed(600, 'agent-traces-3', { 'span-log-orphan.jsonl': `${DIRTY}/span-log-orphan.jsonl` }, { digest: WRONG });
    await harness.front.seed(600, 'coverage', { 'lcov.json': `${DIRTY}/span-log-orphan.jsonl` });
    harness.gh.comments.set(47, []);
    const event = { ...PR_EVENT, number: 47, pull_request: { ...(PR_EVENT['pull_request'] as object), number: 47 } };
    const workspace = tempDir('ata-audit-job-');
    const result = await run(600, { artifacts: 'agent-traces-*\nlangfuse-export\n' }, { eventName: 'pull_request', event, workspace, checkout: false });

    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `::warning::refused artifact "agent-traces-3": the download does not match the digest ${WRONG} the artifact service recorded; nothing of it was unpacked or audited`,
    );
    expect(result.stdout).toContain('::warning::no artifact of this workflow run matches "langfuse-export"');
    expect(result.outputs).toMatchObject({ conclusion: 'failure', findings: '6', errors: '2', warnings: '1', notes: '3' });
    expect(readdirSync(workspace)).toEqual([]);
    expect(result.stdout).not.toContain('the pattern matched no file');
    // This run's artifacts come through the artifact service (no token permission needed), not the REST API.
    expect(harness.front.twirpCalls.filter((m) => m !== 'CreateArtifact' && m !== 'FinalizeArtifact')).toEqual([
      'ListArtifacts',
      ...['agent-traces-1', 'agent-traces-2', 'agent-traces-3'].flatMap(() => ['ListArtifacts', 'GetSignedArtifactURL']),
    ]);
    expect(harness.gh.requests.filter((r) => r.path.includes('/artifacts'))).toEqual([]);

    const json = report(result.outputs['report-json']!);
    expect(json.files.map((f) => f.path)).toEqual(['agent-traces-1/run-a/span-log-orphan.jsonl', 'agent-traces-2/clean/span-log.jsonl', 'agent-traces-2/typed-events-unmatched.jsonl']);
    expect(json.findings.map((f) => `${f.ruleId} ${f.file}:${f.line}`)).toEqual([
      'catalog-missing agent-traces-1/run-a/span-log-orphan.jsonl:2',
      'continued-while-outstanding agent-traces-1/run-a/span-log-orphan.jsonl:2',
      'orphan-call agent-traces-1/run-a/span-log-orphan.jsonl:2',
      'unused-tool agent-traces-2/typed-events-unmatched.jsonl:1',
      'unused-tool agent-traces-2/typed-events-unmatched.jsonl:1',
      'unmatched-result agent-traces-2/typed-events-unmatched.jsonl:4',
    ]);
    expect(json.artifacts).toEqual([
      { name: 'agent-traces-1', id: one.id, digest: one.digest, files: 1 },
      { name: 'agent-traces-2', id: two.id, digest: two.digest, files: 2 },
    ]);
    expect(result.summary).toContain('Artifacts read: `agent-traces-1` (1 file(s)), `agent-traces-2` (2 file(s)).');
    expect(result.summary).toContain('agent-traces-1/run-a/span-log-orphan.jsonl');
    const comment = harness.gh.comments.get(47)![0]!.body;
    expect(comment).toContain('agent-traces-2/typed-events-unmatched.jsonl');
    expect(comment).toContain('Artifacts read: `agent-traces-1` (1 file(s)), `agent-traces-2` (2 file(s)).');
    // Files from artifacts are not in the repository: the check run lists their findings in its summary instead of annotating them.
    const check = harness.gh.checks.runs.find((r) => r.head_sha === (PR_EVENT['pull_request'] as { head: { sha: string } }).head.sha && r.output.summary.includes('agent-traces-1/'))!;
    expect(check.annotations).toEqual([]);
    expect(check.output.summary).toContain('**Not annotated** (6 finding(s) in files that are not committed at the head commit: read from an artifact, written during the run, or inside an archive):');
    expect(check.output.summary).toContain('| error | `orphan-call` | `agent-traces-1/run-a/span-log-orphan.jsonl:2` |');

    // One artifact uploaded by this job: the report, and every trace read sealed with its checkpoint.
    const uploaded = harness.gh.artifacts.filter((a) => a.runId === 600 && a.name === 'agent-trace-audit');
    expect(uploaded.length).toBe(1);
    const files = readZip(await harness.azurite.read(uploaded[0]!.blob));
    const manifest = JSON.parse(files.get('seal-manifest.json')!.toString('utf8')) as { files: Array<{ file: string; sealed: string; checkpoint: string; finalDigest: string }> };
    expect(manifest.files.map((f) => f.file)).toEqual(json.files.map((f) => f.path));
    expect([...files.keys()].sort()).toEqual(['agent-trace-audit-report.json', 'report.html', 'seal-manifest.json', ...manifest.files.flatMap((f) => [f.sealed, f.checkpoint])].sort());
    expect(files.get('agent-trace-audit-report.json')!.toString('utf8')).toBe(readFileSync(result.outputs['report-json']!, 'utf8'));

    const entry = manifest.files.find((f) => f.file === 'agent-traces-1/run-a/span-log-orphan.jsonl')!;
    const dir = tempDir('ata-verify-');
    writeFileSync(join(dir, 'sealed.jsonl'), files.get(entry.sealed)!);
    writeFileSync(join(dir, 'checkpoint.json'), files.get(entry.checkpoint)!);
    const checkpoint = await readCheckpoint(join(dir, 'checkpoint.json'), 'checkpoint.json');
    expect(checkpoint.final_digest).toBe(entry.finalDigest);
    expect(checkpoint.records).toBe(readFileSync(`${DIRTY}/span-log-orphan.jsonl`, 'utf8').trimEnd().split('\n').length);
    const verdict = await verifyFile(join(dir, 'sealed.jsonl'), 'sealed.jsonl', checkpoint, DEFAULT_LIMITS);
    expect(verdict.status).toBe('intact');
    writeFileSync(join(dir, 'sealed.jsonl'), files.get(entry.sealed)!.toString('utf8').replace('web_search', 'web_fetch'));
    expect((await verifyFile(join(dir, 'sealed.jsonl'), 'sealed.jsonl', checkpoint, DEFAULT_LIMITS)).status).not.toBe('intact');
  });

  it('another run (artifacts-run-id): an expired artifact is a plain warning, the count cap names what it left out', async () => {
    harness.front.runHeads.set(700, 'octo-org/agent-app');
    await harness.front.seed(700, 'agent-traces-a', { 'a.jsonl': `${DIRTY}/span-log-orphan.jsonl` });
    await harness.front.seed(700, 'agent-traces-b', { 'b.jsonl': `${DIRTY}/span-log-orphan.jsonl` }, { expired: true });
    await harness.front.seed(700, 'agent-traces-c', { 'c.jsonl': `${DIRTY}/typed-events-unmatched.jsonl` });
    const workspace = tempDir('ata-audit-job-');
    cpSync('examples/clean', join(workspace, 'local'), { recursive: true });
    const inputs = { artifacts: 'agent-traces-*', traces: 'local/*.jsonl', 'artifacts-run-id': '700', 'artifacts-max-count': '1', upload: 'false', comment: 'false' };
    const result = await run(701, inputs, { workspace });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::warning::artifact "agent-traces-b" of run 700 of octo-org/agent-app has expired (past its retention period); its files are not audited');
    expect(result.stdout).toContain('::warning::2 artifacts match; only the first 1 by name are read (artifacts-max-count: 1). Not read: "agent-traces-c"');
    const json = report(result.outputs['report-json']!);
    expect(json.files.map((f) => f.path)).toEqual(['agent-traces-a/a.jsonl', 'local/span-log.jsonl']);
    expect(json.artifacts?.map((a) => [a.name, a.files])).toEqual([['agent-traces-a', 1]]);
  });

  it('a fork run is refused unless artifacts-allow-fork is true; the size cap refuses what does not fit', async () => {
    harness.front.runHeads.set(800, 'forker/agent-app');
    await harness.front.seed(800, 'agent-traces-f', { 'f.jsonl': `${DIRTY}/span-log-orphan.jsonl` });
    const inputs = { artifacts: 'agent-traces-*', 'artifacts-run-id': '800', upload: 'false', comment: 'false' };
    const refused = await run(801, inputs);
    expect(refused.code).toBe(1); // nothing audited, and fail-on-empty is true by default
    expect(refused.stdout).toContain(
      '::warning::refused the artifacts of run 800 of octo-org/agent-app: that run built code from the fork forker/agent-app, so its traces are not trusted. Set artifacts-allow-fork: true to audit them anyway.',
    );
    expect(report(refused.outputs['report-json']!).files).toEqual([]);

    const allowed = await run(802, { ...inputs, 'artifacts-allow-fork': 'true' });
    expect(allowed.code).toBe(1);
    expect(report(allowed.outputs['report-json']!).files.map((f) => f.path)).toEqual(['agent-traces-f/f.jsonl']);

    await harness.front.seed(800, 'agent-traces-g', { 'g.jsonl': 'test/github/fixtures/pull_request.opened.json' });
    const big = harness.gh.artifacts.find((a) => a.name === 'agent-traces-g')!;
    big.size = 2 * 1024 * 1024;
    const capped = await run(803, { ...inputs, 'artifacts-allow-fork': 'true', 'artifacts-max-mb': '1' });
    expect(capped.stdout).toContain('::warning::artifact "agent-traces-g" (2.0 MiB) is not read: the artifacts would pass artifacts-max-mb (1 MiB in all)');
    expect(report(capped.outputs['report-json']!).artifacts?.map((a) => a.name)).toEqual(['agent-traces-f']);
  });
});
