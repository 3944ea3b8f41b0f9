import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { tempDir } from '../helpers.js';
import { PLANTED, plantedTrace } from '../hostile/planted-tokens.js';
import type { Azurite } from './azurite.js';
import type { FakeGitHub } from './fake-github.js';
import { actionDefaults, runBundledAction } from './run-action.js';
import type { ArtifactFront } from './support/artifact-front.js';
import { startArtifactHarness, stopArtifactHarness } from './support/artifact-harness.js';

// The bundled Action (dist/index.js) on a pull request whose trace holds one token of every
// prefixed format in run ids, call ids, tool names, error texts and a broken line. Every public
// output is read back: what the loopback GitHub received (check run title, summary, annotations
// with raw_details; the PR comment), the job summary, the log, SARIF, report.json and report.html.
const TOKEN = 'ghs_loopbackTestToken000000000000000000';
const prEvent = JSON.parse(readFileSync('test/github/fixtures/pull_request.opened.json', 'utf8')) as Record<string, unknown>;

let azurite: Azurite;
let gh: FakeGitHub;
let front: ArtifactFront;

beforeAll(async () => {
  ({ azurite, gh, front } = await startArtifactHarness());
}, 60_000);

afterAll(() => stopArtifactHarness({ azurite, gh, front }));

describe('no token of a prefixed format reaches a public output of the bundled Action', () => {
  it('check run (title, summary, annotation messages and raw_details), PR comment, job summary, log, SARIF, JSON and HTML report', async () => {
    const workspace = tempDir('ata-tokens-ws-');
    mkdirSync(join(workspace, 'traces'));
    writeFileSync(join(workspace, 'traces', 'planted.jsonl'), plantedTrace());
    const pr = prEvent['pull_request'] as object;
    gh.comments.set(35, []);
    gh.currentRunId = 3501;
    const result = await runBundledAction({
      workspace,
      inputs: { ...actionDefaults(TOKEN), baseline: 'off', upload: 'false', traces: 'traces/**', comment: 'true', 'sarif-file': 'out/audit.sarif' },
      eventName: 'pull_request',
      event: { ...prEvent, number: 35, pull_request: { ...pr, number: 35 } },
      runId: 3501,
      apiUrl: front.url,
      resultsUrl: front.url,
      repository: 'octo-org/agent-app',
      workflowRef: 'octo-org/agent-app/.github/workflows/agents.yml@refs/pull/35/merge',
    });
    expect(result.code).toBe(1);
    const reportPath = result.outputs['report-json']!;
    const report = reportSchema.parse(JSON.parse(readFileSync(reportPath, 'utf8')));
    const checks = gh.checks.runs;
    expect(checks).toHaveLength(1);
    const check = checks[0]!;
    const comments = gh.comments.get(35) ?? [];
    expect(comments).toHaveLength(1);
    const outputs: Record<string, string> = {
      'check title': check.output.title,
      'check summary': check.output.summary,
      'annotation messages': check.annotations.map((a) => a.message).join('\n'),
      'annotation raw_details': check.annotations.map((a) => a.raw_details ?? '').join('\n'),
      'annotation titles and paths': check.annotations.map((a) => `${a.title ?? ''} ${a.path}`).join('\n'),
      'every request to GitHub': JSON.stringify(gh.requests),
      'PR comment': JSON.stringify(comments),
      'job summary': result.summary,
      log: result.stdout,
      sarif: readFileSync(join(workspace, 'out', 'audit.sarif'), 'utf8'),
      'report.json': readFileSync(reportPath, 'utf8'),
      'report.html': readFileSync(join(dirname(reportPath), 'report.html'), 'utf8'),
    };
    // The check could fail: the trace holds every token, each format is reported, and the annotations name the redacted ids.
    expect(readFileSync(join(workspace, 'traces', 'planted.jsonl'), 'utf8')).toContain(PLANTED[0]!.hidden);
    const reported = new Set(report.findings.filter((f) => f.ruleId === 'secret-in-trace').map((f) => /^([a-z0-9-]+) in /.exec(f.message)?.[1]));
    for (const { ruleId } of PLANTED) expect(reported, ruleId).toContain(ruleId);
    expect(check.annotations.length).toBeGreaterThan(PLANTED.length);
    expect(outputs['annotation raw_details']).toContain(`run run [REDACTED:${PLANTED[0]!.ruleId}], call c0 [REDACTED:${PLANTED[0]!.ruleId}], tool tool [REDACTED:${PLANTED[0]!.ruleId}]`);
    for (const [output, text] of Object.entries(outputs)) {
      expect(text.length, output).toBeGreaterThan(0);
      for (const { ruleId, hidden } of PLANTED) expect(text.includes(hidden), `${ruleId} in ${output}`).toBe(false);
    }
  }, 120_000);
});
