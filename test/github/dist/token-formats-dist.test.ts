import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempDir } from '../../helpers.js';
import { jsonEscaped, PLANTED, plantedTrace } from '../../hostile/secrets/planted-tokens.js';
import { PR_EVENT, useActionHarness } from '../support/action-harness.js';

// The bundled Action (dist/index.js) on a pull request whose trace holds one token of every
// prefixed format in run ids, call ids, tool names, arguments, error texts and broken lines: after a
// space, after `_`, glued to a letter or digit, and written with JSON escapes. Every public
// output is read back: what the loopback GitHub received (check run title, summary, annotations
// with raw_details; the PR comment), the job summary, the log, SARIF, report.json and report.html.

const harness = useActionHarness();

describe('no token of a prefixed format reaches a public output of the bundled Action', () => {
  it('check run (title, summary, annotation messages and raw_details), PR comment, job summary, log, SARIF, JSON and HTML report', async () => {
    const workspace = tempDir('ata-tokens-ws-');
    mkdirSync(join(workspace, 'traces'));
    writeFileSync(join(workspace, 'traces', 'planted.jsonl'), plantedTrace());
    const pr = PR_EVENT['pull_request'] as object;
    harness.gh.comments.set(35, []);
    const result = await harness.run(3501, { baseline: 'off', upload: 'false', traces: 'traces/**', comment: 'true', 'sarif-file': 'out/audit.sarif' }, { workspace, event: { ...PR_EVENT, number: 35, pull_request: { ...pr, number: 35 } }, workflowRef: 'octo-org/agent-app/.github/workflows/agents.yml@refs/pull/35/merge' });
    expect(result.code).toBe(1);
    const reportPath = result.outputs['report-json']!;
    const report = reportSchema.parse(JSON.parse(readFileSync(reportPath, 'utf8')));
    const checks = harness.gh.checks.runs;
    expect(checks).toHaveLength(1);
    const check = checks[0]!;
    const comments = harness.gh.comments.get(35) ?? [];
    expect(comments).toHaveLength(1);
    const outputs: Record<string, string> = {
      'check title': check.output.title,
      'check summary': check.output.summary,
      'annotation messages': check.annotations.map((a) => a.message).join('\n'),
      'annotation raw_details': check.annotations.map((a) => a.raw_details ?? '').join('\n'),
      'annotation titles and paths': check.annotations.map((a) => `${a.title ?? ''} ${a.path}`).join('\n'),
      'every request to GitHub': JSON.stringify(harness.gh.requests),
      'PR comment': JSON.stringify(comments),
      'job summary': result.summary,
      log: result.stdout,
      sarif: readFileSync(join(workspace, 'out', 'audit.sarif'), 'utf8'),
      'report.json': readFileSync(reportPath, 'utf8'),
      'report.html': readFileSync(join(dirname(reportPath), 'report.html'), 'utf8'),
    };
    // The check could fail: the trace holds every token, each format is reported, and the annotations name the redacted ids.
    const planted = readFileSync(join(workspace, 'traces', 'planted.jsonl'), 'utf8');
    for (const { hidden } of PLANTED) for (const placed of [hidden, `tool_${hidden}`, jsonEscaped(hidden)]) expect(planted).toContain(placed);
    const reported = new Set(report.findings.filter((f) => f.ruleId === 'secret-in-trace').map((f) => /^([a-z0-9-]+) in /.exec(f.message)?.[1]));
    for (const { ruleId } of PLANTED) expect(reported, ruleId).toContain(ruleId);
    expect(check.annotations.length).toBeGreaterThan(PLANTED.length);
    expect(outputs['annotation raw_details']).toContain(`run run [REDACTED:${PLANTED[0]!.ruleId}], call c0 [REDACTED:${PLANTED[0]!.ruleId}], tool tool [REDACTED:${PLANTED[0]!.ruleId}]`);
    expect(outputs['annotation raw_details']).toContain(`run run_[REDACTED:${PLANTED[0]!.ruleId}], call u0_[REDACTED:${PLANTED[0]!.ruleId}], tool tool_[REDACTED:${PLANTED[0]!.ruleId}]`);
    for (const [output, text] of Object.entries(outputs)) {
      expect(text.length, output).toBeGreaterThan(0);
      for (const { ruleId, hidden } of PLANTED) {
        expect(text.includes(hidden), `${ruleId} in ${output}`).toBe(false);
        expect(text.includes(jsonEscaped(hidden)), `${ruleId} escaped in ${output}`).toBe(false);
        expect(text.includes(hidden.slice(1)), `${ruleId} (but its first character) in ${output}`).toBe(false);
      }
    }
  }, 120_000);
});
