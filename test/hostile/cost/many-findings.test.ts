import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnnotationProperties } from '@actions/core';
import { annotate, ANNOTATIONS_PER_LEVEL, type AnnotationSink } from '../../../src/github/annotations.js';
import { COMMENT_LIMIT, renderWithinBudget, SUMMARY_LIMIT } from '../../../src/report/render/budget.js';
import type { Report } from '../../../src/report/schema.js';
import { actionDefaults, runBundledAction } from '../../github/run-action.js';
import { tempTree } from '../../helpers.js';
import { auditJson } from '../audit-cli.js';
import { markupFromTrace, renderGfm } from '../outputs/markdown-check.js';
import { CMARK_GFM, itWith } from '../../system-tools.js';

/** 50,000 results without calls, 25,000 calls without results and a model span after them: 100,001 findings. */
function manyFindingsTrace(): string {
  const lines: string[] = [];
  for (let i = 0; i < 50_000; i += 1) lines.push(JSON.stringify({ run_id: 'r1', kind: 'tool_result', call_id: `u${i}`, tool: 'ls', result: {} }));
  for (let i = 0; i < 25_000; i += 1) lines.push(JSON.stringify({ run_id: 'r1', kind: 'tool_call', call_id: `o${i}`, tool: 'grep' }));
  lines.push(JSON.stringify({ run_id: 'r1', kind: 'llm', event: 'assistant_delta' }));
  return `${lines.join('\n')}\n`;
}

describe('100,000 findings from a real audit', () => {
  let root: string;
  let report: Report;

  beforeAll(async () => {
    // Past the default caps (limits.max-findings-per-rule, limits.max-findings): this test is about renderers facing 100,001 listed findings.
    root = tempTree({ 'agent-trace-audit.yml': 'limits:\n  max-findings-per-rule: 100000\n  max-findings: 200000\n' });
    writeFileSync(join(root, 'many.jsonl'), manyFindingsTrace());
    const run = await auditJson(['many.jsonl'], [], root);
    expect(run.code).toBe(1);
    report = run.report;
  }, 120_000);

  it('finds every one', () => {
    expect(report.summary.findings).toEqual({ error: 75_000, warning: 25_000, note: 1 });
    expect(report.findings).toHaveLength(100_001);
  });

  itWith(CMARK_GFM, 'the PR comment stays within 65,536 characters, says what was cut, and renders cleanly', () => {
    const marker = '<!-- agent-trace-audit -->';
    const comment = renderWithinBudget(report, COMMENT_LIMIT, { head: ['[Run](https://github.com/o/r/actions/runs/1)'], tail: [marker] });
    expect(comment.markdown.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(comment.markdown.length).toBeGreaterThan(COMMENT_LIMIT / 2);
    expect(comment.findingsShown).toBeGreaterThan(0);
    expect(comment.markdown).toContain(`${100_001 - comment.findingsShown} of 100001 finding(s)`);
    expect(comment.markdown.trimEnd().endsWith(marker)).toBe(true);
    expect(markupFromTrace(renderGfm(comment.markdown), ['https://github.com/o/r/actions/runs/1'])).toEqual([]);
  });

  it('the job summary stays within 1 MiB and says what was cut', () => {
    const summary = renderWithinBudget(report, SUMMARY_LIMIT);
    expect(summary.markdown.length).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(Buffer.byteLength(summary.markdown)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(summary.markdown).toContain(`${100_001 - summary.findingsShown} of 100001 finding(s)`);
  });

  it('annotations are capped per level, with one line counting the rest', () => {
    const shown: Array<[string, string, AnnotationProperties]> = [];
    const info: string[] = [];
    const sink: AnnotationSink = {
      error: (m, p) => shown.push(['error', m, p]),
      warning: (m, p) => shown.push(['warning', m, p]),
      notice: (m, p) => shown.push(['notice', m, p]),
      info: (m) => info.push(m),
    };
    const hidden = annotate(report.findings, sink);
    const perLevel = ANNOTATIONS_PER_LEVEL - 2;
    expect(shown.filter((a) => a[0] === 'error')).toHaveLength(perLevel);
    expect(shown.filter((a) => a[0] === 'warning')).toHaveLength(perLevel);
    expect(shown.filter((a) => a[0] === 'notice')).toHaveLength(1);
    expect(hidden).toBe(100_001 - 2 * perLevel - 1);
    expect(info).toEqual([
      `${hidden} finding(s) not shown as annotations (${perLevel} per level, max-annotations; GitHub shows ${ANNOTATIONS_PER_LEVEL} per level per step); all are in the job summary and the JSON report.`,
    ]);
  });

  it('the bundled Action writes a summary under 1 MiB and at most the capped annotations', async () => {
    const run = await runBundledAction({
      workspace: root,
      inputs: { ...actionDefaults(''), traces: 'many.jsonl', comment: 'false', upload: 'false', seal: 'false', baseline: 'off' },
      eventName: 'push',
      event: { ref: 'refs/heads/main', after: 'a'.repeat(40) },
      runId: 8,
      apiUrl: 'http://127.0.0.1:9',
      resultsUrl: 'http://127.0.0.1:9',
      repository: 'octo-org/agent-app',
      workflowRef: 'octo-org/agent-app/.github/workflows/agents.yml@refs/heads/main',
    });
    expect(run.code).toBe(1);
    expect(run.outputs['findings']).toBe('100001');
    expect(Buffer.byteLength(run.summary)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(run.summary).toMatch(/\d+ of 100001 finding\(s\)/);
    const annotations = run.stdout.split('\n').filter((line) => /^::(error|warning|notice) /.test(line));
    expect(annotations).toHaveLength(2 * (ANNOTATIONS_PER_LEVEL - 2) + 1);
    expect(run.stdout).toContain(`${100_001 - annotations.length} finding(s) not shown as annotations`);
  }, 120_000);
});
