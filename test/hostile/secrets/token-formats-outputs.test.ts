import { beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_LIMIT, renderWithinBudget } from '../../../src/report/render/budget.js';
import { planAnnotations } from '../../../src/report/render/check-annotations.js';
import { checkSummaryTail, checkTitle } from '../../../src/report/render/check-summary.js';
import { renderHtml } from '../../../src/report/html/render.js';
import { judge } from '../../../src/report/verdict/judge.js';
import { renderJson } from '../../../src/report/render/json.js';
import { renderMarkdown } from '../../../src/report/render/markdown.js';
import { renderSarif } from '../../../src/report/render/sarif.js';
import { reportSchema, type Report } from '../../../src/report/schema.js';
import { renderText } from '../../../src/report/render/text.js';
import { TOKEN_FORMATS } from '../../../src/sanitize/token-formats.js';
import { tempTree, judgedAlone } from '../../helpers.js';
import { runInProcess } from '../audit-cli.js';
import { jsonEscaped, PLANTED, plantedTrace } from './planted-tokens.js';

describe('every prefixed token format stays out of every output (in-process renderers)', () => {
  let report: Report;
  const outputs: Record<string, string> = {};

  beforeAll(async () => {
    const root = tempTree({ 'traces/planted.jsonl': plantedTrace() });
    const run = await runInProcess(['audit', 'traces', '--format', 'json', '--jobs', '1'], root);
    expect(run.code).toBe(1);
    report = reportSchema.parse(JSON.parse(run.stdout));
    const plan = planAnnotations(report, { cap: 5000 });
    Object.assign(outputs, {
      json: run.stdout,
      log: run.stderr,
      'json (rendered)': renderJson(report),
      text: renderText(report),
      markdown: renderMarkdown(report, judgedAlone(report)),
      'job summary': renderWithinBudget(report, SUMMARY_LIMIT).markdown,
      sarif: renderSarif(report),
      html: renderHtml(report),
      'check title': checkTitle(judge(report, { config: { failOn: 'error' }, baseline: null, defaultGate: 'all', allowEmpty: false }).verdict.headline),
      'check summary tail': checkSummaryTail(plan, report.findings.length).join('\n'),
      'annotation messages': plan.annotations.map((a) => a.message).join('\n'),
      'annotation raw_details': plan.annotations.map((a) => a.raw_details ?? '').join('\n'),
      'annotation titles and paths': plan.annotations.map((a) => `${a.title} ${a.path}`).join('\n'),
    });
  });

  it('the planted trace holds every token, and secret-in-trace reports each format (so the check below can fail)', () => {
    expect(PLANTED.map((s) => s.ruleId)).toEqual(TOKEN_FORMATS.map((p) => p.id));
    expect(plantedTrace()).toContain(PLANTED[0]!.hidden);
    const reported = new Set(report.findings.filter((f) => f.ruleId === 'secret-in-trace').map((f) => /^([a-z0-9-]+) in /.exec(f.message)?.[1]));
    for (const { ruleId } of PLANTED) expect(reported, ruleId).toContain(ruleId);
    // Run ids, call ids and tool names reach the outputs: the orphan calls name them, redacted.
    const orphans = report.findings.filter((f) => f.ruleId === 'orphan-call' && f.callId?.startsWith('c'));
    expect(orphans).toHaveLength(PLANTED.length);
    expect(orphans.map((f) => f.tool)).toEqual(PLANTED.map((s) => `tool [REDACTED:${s.ruleId}]`));
    expect(orphans.map((f) => f.runId)).toEqual(PLANTED.map((s) => `run [REDACTED:${s.ruleId}]`));
    // After `_`, glued to a letter or digit, and written with JSON escapes: redacted the same way.
    const named = (lead: string) => report.findings.filter((f) => f.ruleId === 'orphan-call' && f.callId?.startsWith(lead));
    expect(named('u').map((f) => [f.runId, f.tool])).toEqual(PLANTED.map((s) => [`run_[REDACTED:${s.ruleId}]`, `tool_[REDACTED:${s.ruleId}]`]));
    const glued = (s: (typeof PLANTED)[number], letter: string) => (s.ruleId === 'square-token' && s.text.startsWith('EAAA') ? '_' : letter);
    expect(named('g').map((f) => [f.runId, f.tool])).toEqual(PLANTED.map((s) => [`run${glued(s, 'x')}[REDACTED:${s.ruleId}]`, `tool${glued(s, 'x')}[REDACTED:${s.ruleId}]`]));
    expect(named('x').map((f) => [f.runId, f.tool])).toEqual(PLANTED.map((s) => [`run [REDACTED:${s.ruleId}]`, `tool_[REDACTED:${s.ruleId}]`]));
    // The raw lines of the trace hold each token glued and escaped (so the checks below can fail).
    for (const { text } of PLANTED) for (const placed of [`tool_${text}`, jsonEscaped(text)]) expect(plantedTrace()).toContain(placed);
  });

  it('no token of any format appears in the JSON, text, markdown, job summary, SARIF, HTML, check-run title, summary, annotations or log', () => {
    expect(Object.keys(outputs)).toHaveLength(13);
    for (const [output, text] of Object.entries(outputs)) {
      if (output !== 'log') expect(text.length, output).toBeGreaterThan(0);
      for (const { ruleId, hidden } of PLANTED) {
        expect(text.includes(hidden), `${ruleId} in ${output}`).toBe(false);
        expect(text.includes(jsonEscaped(hidden)), `${ruleId} escaped in ${output}`).toBe(false);
        // Not even the token past its first character (what an escaped first character would leave).
        expect(text.includes(hidden.slice(1)), `${ruleId} (but its first character) in ${output}`).toBe(false);
      }
    }
  });
});
