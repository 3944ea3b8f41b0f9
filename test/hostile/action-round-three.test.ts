import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import type { Azurite } from '../github/artifacts/azurite.js';
import type { FakeGitHub } from '../github/fake-github.js';
import { readZip } from '../github/artifacts/read-zip.js';
import { actionDefaults, runBundledAction } from '../github/run-action.js';
import type { ArtifactFront } from '../github/support/artifact-front.js';
import { startArtifactHarness, stopArtifactHarness } from '../github/support/artifact-harness.js';
import { aliasCassette } from '../ingest/cassette/alias-cassette.js';
import { liveCommandLines } from './outputs/hostile-text.js';
import { hostileWorkspace, TRACE } from './workspace/hostile-workspace.js';
import { tempTree } from '../helpers.js';
import { PLANTED, plantedTrace } from './secrets/planted-tokens.js';

// Issue 35's third round as one pull request against the bundled Action and the loopback GitHub:
// the workspace attacks (items 1, 2, 4, 8, 10, 12 and workflow commands in trace text) together,
// every public output read back. The configuration, receiver, verify and artifact-zip items have
// their own runs (see docs/action.md, "What a pull request can make the Action read").
const TOKEN = 'ghs_loopbackTestToken000000000000000000';
const prEvent = JSON.parse(readFileSync('test/github/fixtures/pull_request.opened.json', 'utf8')) as Record<string, unknown>;
const LONG_NAME = `${'n'.repeat(240)}.jsonl`;
const line = (record: unknown) => `${JSON.stringify(record)}\n`;

let azurite: Azurite;
let gh: FakeGitHub;
let front: ArtifactFront;

beforeAll(async () => {
  ({ azurite, gh, front } = await startArtifactHarness());
}, 60_000);

afterAll(() => stopArtifactHarness({ azurite, gh, front }));

/** The pull request's workspace: hostileWorkspace's symlinks plus one trace per attack under traces2/. */
function roundThreeWorkspace(): string {
  const { workspace } = hostileWorkspace();
  const dir = join(workspace, 'pr');
  mkdirSync(dir);
  writeFileSync(join(dir, 'planted.jsonl'), plantedTrace());
  // A first record of 1.2 MB, then a call with no result: detected and audited (item 4).
  writeFileSync(join(dir, 'long-first.jsonl'), line({ run_id: 'L', kind: 'tool_call', call_id: 'l1', tool: 'write', args: { text: 'x'.repeat(1_200_000) } }) + line({ run_id: 'L', kind: 'tool_result', call_id: 'l1', tool: 'write', result: { ok: true } }) + line({ run_id: 'L', kind: 'tool_call', call_id: 'l2', tool: 'ls' }));
  // 1,000 aliases of a 1 MB body (item 8).
  writeFileSync(join(dir, 'bomb.yaml'), aliasCassette(1024 * 1024, 1000));
  // Records of 60,000 keys (item 12), between two ordinary ones.
  const wide = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]));
  writeFileSync(join(dir, 'wide.jsonl'), line({ run_id: 'W', kind: 'tool_call', call_id: 'w1', tool: 'ls' }) + line({ run_id: 'W', kind: 'tool_call', call_id: 'w2', tool: 'ls', args: wide }).repeat(3) + line({ run_id: 'W', kind: 'tool_result', call_id: 'w1', tool: 'ls', result: {} }));
  // A 240-character name (item 10).
  writeFileSync(join(dir, LONG_NAME), line({ run_id: 'N', kind: 'tool_call', call_id: 'n1', tool: 'ls' }));
  // Workflow commands in trace text.
  writeFileSync(join(dir, 'commands.jsonl'), line({ run_id: 'x\n::error::PWNED_RUN', kind: 'tool_call', call_id: '::add-mask::PWNED_CALL', tool: '##[add-mask]PWNED_TOOL' }));
  // A real checkout (the credential stays in .git/config), the pull request's files and symlinks committed: findings are annotated.
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  execFileSync('git', ['add', '-A'], { cwd: workspace });
  expect(readFileSync(join(workspace, '.git', 'config'), 'utf8')).toContain('GIT_SENTINEL');
  return workspace;
}

describe('issue 35, third round: one pull request with every workspace attack, against the bundled Action', () => {
  it('reads nothing outside the workspace, leaks no token, runs no command, loses no known file, bounds every cost', async () => {
    const workspace = roundThreeWorkspace();
    const pr = prEvent['pull_request'] as object;
    gh.comments.set(36, []);
    gh.currentRunId = 3503;
    const start = Date.now();
    const result = await runBundledAction({
      workspace,
      inputs: { ...actionDefaults(TOKEN), baseline: 'off', comment: 'true', 'sarif-file': 'out-sarif/audit.sarif', traces: 'traces/**\nout/**/*.jsonl\nproc/**\nmid/link/secret.jsonl\npr/**\nreal/*.jsonl' },
      eventName: 'pull_request',
      event: { ...prEvent, number: 36, pull_request: { ...pr, number: 36 } },
      runId: 3503,
      apiUrl: front.url,
      resultsUrl: front.url,
      repository: 'octo-org/agent-app',
      workflowRef: 'octo-org/agent-app/.github/workflows/agents.yml@refs/pull/36/merge',
    });
    const seconds = (Date.now() - start) / 1000;
    expect(result.code, result.stdout).toBe(1);
    const reportPath = result.outputs['report-json']!;
    const report = reportSchema.parse(JSON.parse(readFileSync(reportPath, 'utf8')));

    // Item 1: the four symlinks are one warning each; only the workspace's files are read.
    expect(result.stdout.split('\n').filter((l) => l.includes('skipped'))).toEqual([
      '::warning::skipped traces: refused: a symlink into .git',
      '::warning::skipped out: refused: a symlink that leaves the workspace',
      '::warning::skipped proc: refused: a symlink that leaves the workspace',
      '::warning::skipped mid/link/secret.jsonl: refused: a symlink that leaves the workspace',
    ]);
    expect(report.files.map((f) => f.path).sort()).toEqual(['pr/bomb.yaml', 'pr/commands.jsonl', 'pr/long-first.jsonl', `pr/${LONG_NAME}`, 'pr/planted.jsonl', 'pr/wide.jsonl', 'real/a.jsonl']);
    const at = (file: string) => report.findings.filter((f) => f.file === `pr/${file}`).map((f) => `${f.ruleId}@${f.line}`);
    // Item 4: the long first record's file is audited (its orphan found); item 8: the cassette refused in one finding;
    // item 12: each 60,000-key record is too-many-keys, the rest of its file read.
    expect(report.files.find((f) => f.path === 'pr/long-first.jsonl')!.format).toBe('native-jsonl');
    expect(at('long-first.jsonl')).toContain('orphan-call@3');
    expect(report.findings.filter((f) => f.file === 'pr/bomb.yaml' && f.ruleId === 'malformed-record').map((f) => f.message)).toEqual([
      `cassette not read: its aliases expand it by ${1000 * ('string'.length + 2 + JSON.stringify({ type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: { pad: 'p'.repeat(1024 * 1024) } }] }).length)} bytes, past the limit of 536870912 bytes (limits.max-document-bytes)`,
    ]);
    expect(at('wide.jsonl').filter((f) => f.startsWith('too-many-keys'))).toEqual(['too-many-keys@2', 'too-many-keys@3', 'too-many-keys@4']);

    // Item 10: the long name is sealed (under a shortened name), the manifest keeps it; nothing outside is uploaded.
    const uploaded = gh.artifacts.filter((a) => a.runId === 3503 && a.name === 'agent-trace-audit');
    expect(uploaded).toHaveLength(1);
    const zip = readZip(await azurite.read(uploaded[0]!.blob));
    const manifest = JSON.parse(zip.get('seal-manifest.json')!.toString('utf8')) as { files: Array<{ file: string; sealed?: string; error?: string }> };
    const longEntry = manifest.files.find((f) => f.file === `pr/${LONG_NAME}`)!;
    expect(longEntry.error).toBeUndefined();
    expect(longEntry.sealed!.length).toBeLessThan(LONG_NAME.length);
    expect(manifest.files.map((f) => f.file)).not.toContain('secret.jsonl');

    // Item 2 and the rest: no token, sentinel or live command from the traces in any public output.
    const check = gh.checks.runs.at(-1)!;
    const outputs: Record<string, string> = {
      'check run': JSON.stringify(check),
      'PR comment': JSON.stringify(gh.comments.get(36) ?? []),
      'every request to GitHub': JSON.stringify(gh.requests),
      'job summary': result.summary,
      log: result.stdout,
      sarif: readFileSync(join(workspace, 'out-sarif', 'audit.sarif'), 'utf8'),
      'report.json': readFileSync(reportPath, 'utf8'),
      'report.html': readFileSync(join(dirname(reportPath), 'report.html'), 'utf8'),
      ...Object.fromEntries([...zip].map(([name, bytes]) => [`artifact ${name}`, bytes.toString('latin1')])),
    };
    for (const [output, text] of Object.entries(outputs)) {
      for (const { ruleId, hidden } of PLANTED) expect(text.includes(hidden), `${ruleId} in ${output}`).toBe(false);
      expect(text, output).not.toMatch(/OUTSIDE_SENTINEL|GIT_SENTINEL|extraheader/);
    }
    // The checks could fail: the tokens and commands reached the report (redacted, neutralized) and the annotations.
    expect(new Set(report.findings.filter((f) => f.ruleId === 'secret-in-trace').map((f) => /^([a-z0-9-]+) in /.exec(f.message)?.[1]))).toEqual(new Set(PLANTED.map((p) => p.ruleId)));
    expect(report.findings.filter((f) => f.file === 'pr/commands.jsonl').map((f) => f.runId)).toContain('x ::error::PWNED_RUN');
    expect(JSON.stringify(check.annotations)).toContain('PWNED_RUN');
    expect(liveCommandLines(result.stdout).filter((l) => l.includes('PWNED') || !/^::(error|warning|debug)::/.test(l))).toEqual([]);
    // Measured: 6–11 s for the whole step on a loaded two-core machine (Node start, the artifact upload and 7 traces).
    expect(seconds).toBeLessThan(120);
  }, 240_000);

  it('the configuration file: a symlink to /dev/urandom or /proc/self/status, 40,000 keys, keys holding commands: one error each, at once, nothing echoed or run', async () => {
    const forty = `limits:\n${Array.from({ length: 40_000 }, (_, i) => `  k${i}: 1\n`).join('')}`;
    const cases: Array<[string, (root: string) => void, string]> = [
      ['urandom', (root) => symlinkSync('/dev/urandom', join(root, 'agent-trace-audit.yml')), 'cannot read configuration file "agent-trace-audit.yml": a symlink that leaves the workspace'],
      ['status', (root) => symlinkSync('/proc/self/status', join(root, 'agent-trace-audit.yml')), 'cannot read configuration file "agent-trace-audit.yml": a symlink that leaves the workspace'],
      ['forty', (root) => writeFileSync(join(root, 'agent-trace-audit.yml'), forty), `cannot read configuration file "agent-trace-audit.yml": ${Buffer.byteLength(forty)} bytes, larger than the limit of 262144 bytes`],
      ['commands', (root) => writeFileSync(join(root, 'agent-trace-audit.yml'), '"a\\n::add-mask::PWNED_KEY": 1\n'), 'agent-trace-audit.yml'],
    ];
    for (const [name, plant, error] of cases) {
      const workspace = tempTree({ 'traces/t.jsonl': TRACE });
      plant(workspace);
      const start = Date.now();
      const result = await runBundledAction({
        workspace,
        inputs: { ...actionDefaults(TOKEN), baseline: 'off', comment: 'false', upload: 'false', traces: 'traces/**' },
        eventName: 'push',
        event: { ref: 'refs/heads/main', after: 'c'.repeat(40) },
        runId: 3504,
        apiUrl: front.url,
        resultsUrl: front.url,
        repository: 'octo-org/agent-app',
        workflowRef: 'octo-org/agent-app/.github/workflows/agents.yml@refs/heads/main',
      });
      const ms = Date.now() - start;
      expect(result.code, name).toBe(1);
      const errors = result.stdout.split('\n').filter((l) => l.startsWith('::error::'));
      expect(errors, name).toHaveLength(1);
      expect(errors[0], name).toContain(error);
      expect(result.stdout, name).not.toMatch(/VmPeak|Uid:|PWNED_KEY\n/);
      // The Action's own ::error:: carries the key escaped (%0A): the key's command is never a line of its own.
      expect(liveCommandLines(result.stdout).filter((l) => !/^::(error|warning|debug)::/.test(l)), name).toEqual([]);
      // Measured: under 1 s each (the step's start included); it was 15–17 s and 1.1 GB for /dev/urandom, 9–11 s for 40,000 keys.
      expect(ms, name).toBeLessThan(20_000);
    }
  }, 240_000);
});
