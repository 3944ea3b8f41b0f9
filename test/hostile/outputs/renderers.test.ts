import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, renderWithinBudget, SUMMARY_LIMIT } from '../../../src/report/render/budget.js';
import { reportSchema, type Report } from '../../../src/report/schema.js';
import { renderSarif } from '../../../src/report/render/sarif.js';
import { tempTree } from '../../helpers.js';
import { runInProcess } from '../audit-cli.js';
import { HOSTILE_FILE_NAMES, HOSTILE_TEXT, hiddenSecrets, hostileTrace, workflowCommandLines } from './hostile-text.js';
import { markupFromTrace, renderGfm } from './markdown-check.js';
import { CMARK_GFM, itWith } from '../../system-tools.js';

const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

describe('hostile file names and trace text in every renderer', () => {
  let root: string;
  let report: Report;
  const outputs: Record<string, string> = {};

  beforeAll(async () => {
    const trace = hostileTrace();
    root = tempTree(Object.fromEntries(HOSTILE_FILE_NAMES.map((name) => [join('traces', name), trace])));
    for (const format of ['text', 'json', 'markdown']) {
      const run = await runInProcess(['audit', 'traces', '--format', format, '--jobs', '1'], root);
      expect(run.code).toBe(1);
      outputs[format] = run.stdout;
      outputs[`${format} stderr`] = run.stderr;
    }
    report = reportSchema.parse(JSON.parse(outputs['json']!));
    outputs['sarif'] = renderSarif(report);
    outputs['comment'] = renderWithinBudget(report, COMMENT_LIMIT, { tail: ['<!-- agent-trace-audit -->'] }).markdown;
    outputs['summary'] = renderWithinBudget(report, SUMMARY_LIMIT).markdown;
  });

  it('reads every hostile file name, shown on one line with nothing invisible', () => {
    expect(report.files.map((f) => f.path)).toEqual([
      'traces/::add-mask::x.jsonl',
      'traces/@octocat <img src=x>.jsonl',
      'traces/line break::error::x.jsonl',
      'traces/pct 100%25 `tick` |pipe| $(touch pwned).jsonl',
    ]);
    expect(report.files.map((f) => f.records)).toEqual([27, 27, 27, 27]);
    expect(report.findings.filter((f) => f.ruleId === 'malformed-record')).toHaveLength(4 * (HOSTILE_TEXT.length + 1));
    expect(report.findings.filter((f) => f.ruleId === 'unknown-tool').length).toBeGreaterThanOrEqual(4 * HOSTILE_TEXT.length);
  });

  it('runs nothing: `$(touch pwned)` in names and text creates no file', () => {
    expect(existsSync(join(root, 'pwned'))).toBe(false);
    expect(existsSync(join(root, 'traces', 'pwned'))).toBe(false);
  });

  it('no secret, in any disguise, appears in any output', () => {
    const { mustNotAppear } = hiddenSecrets();
    for (const [name, text] of Object.entries(outputs)) {
      for (const secret of mustNotAppear) expect(text.includes(secret), `${secret} in ${name}`).toBe(false);
    }
    expect(report.findings.filter((f) => f.ruleId === 'secret-in-trace').length).toBeGreaterThanOrEqual(4);
  });

  it('no output line is a workflow command, and no control, bidi or zero-width character gets through', () => {
    for (const [name, text] of Object.entries(outputs)) {
      expect(workflowCommandLines(text), name).toEqual([]);
      expect(INVISIBLE.test(text.replace(/\n/g, '')), name).toBe(false);
    }
  });

  itWith(CMARK_GFM, 'markdown rendered by cmark-gfm holds no link, image, mention, reference or HTML from trace text', () => {
    for (const name of ['markdown', 'comment', 'summary']) {
      const html = renderGfm(outputs[name]!);
      expect(markupFromTrace(html), name).toEqual([]);
      // The hostile strings are still shown, as code.
      expect(html).toContain('<code>');
    }
  });

  itWith(CMARK_GFM, 'the checks can fail: the same text outside code spans is caught', () => {
    const html = renderGfm(`${HOSTILE_TEXT.join('\n\n')}\n`);
    expect(markupFromTrace(html)).toEqual(
      expect.arrayContaining(['element <img>', 'reference @octocat', 'reference @org/team', 'reference #1', 'reference o/r#2', 'HTML comment']),
    );
    expect(markupFromTrace(html).some((p) => p.startsWith('link <a href="https://evil.example">'))).toBe(true);
    // Our rule docs links pass; a link that only starts like one does not.
    expect(markupFromTrace(renderGfm('[`x`](https://github.com/agent-trace-audit/agent-trace-audit/blob/main/docs/rules/orphan-call.md)\n'))).toEqual([]);
    expect(markupFromTrace(renderGfm('[x](https://github.com/agent-trace-audit/agent-trace-audit/blob/main/docs/rules/a/../../../../evil.md)\n'))).toHaveLength(1);
    expect(workflowCommandLines('x\n  ::add-mask::x\nsee ##[error]y')).toEqual(['  ::add-mask::x', 'see ##[error]y']);
  });

  it('every markdown table row keeps its column count (no `|` or newline from a trace breaks a row)', () => {
    for (const name of ['markdown', 'comment', 'summary']) {
      const rows = outputs[name]!.split('\n').filter((line) => line.startsWith('| '));
      for (const row of rows) {
        const cells = row.replace(/\\\|/g, '').split('|').length - 2;
        expect([4, 6], `${name}: ${row}`).toContain(cells);
      }
    }
  });
});
