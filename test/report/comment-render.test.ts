import { judge } from '../../src/report/verdict/judge.js';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { commentMarker } from '../../src/github/artifacts/artifact-name.js';
import { COMMENT_LIMIT, renderWithinBudget, SUMMARY_LIMIT } from '../../src/report/render/budget.js';
import { renderComment } from '../../src/report/comment/render.js';
import { findingDelta } from '../../src/report/verdict/delta.js';
import type { Report } from '../../src/report/schema.js';
import { audited, jsonl, tempTree } from '../helpers.js';
import { CMARK_GFM, describeWith } from '../system-tools.js';

// Comments rendered by cmark-gfm (GitHub's renderer; .ci/run installs it) with
// raw HTML let through (--unsafe), so anything that could form from trace text shows up.
const HOSTILE = [
  '@octocat please look',
  'fixes #1 and GH-2 and octo-org/agent-app#3',
  'a|b||c | d',
  '`tick` ``double`` ```triple```',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script><b>bold</b>',
  '![pixel](https://evil.example/p.png)',
  '[click](https://evil.example/)',
  'https://evil.example/auto',
  'line\nbreak\r\n| --- |',
  '<!-- agent-trace-audit:comment -->',
];

function hostileTrace(findings: number): string {
  const records: unknown[] = [];
  for (let i = 0; i < findings; i++) {
    const tool = HOSTILE[i % HOSTILE.length]!;
    records.push({ run_id: `r_${Math.floor(i / 1000)}`, span_id: `s${i}`, kind: 'tool_call', call_id: `${HOSTILE[(i + 3) % HOSTILE.length]} ${i}`, tool });
  }
  return jsonl(...records);
}

async function hostileReport(findings: number): Promise<Report> {
  const root = tempTree({ 'traces/@octocat|<img src=x>.jsonl': hostileTrace(findings) });
  // Past the default finding caps: the comment budget is tested on 100,100 listed findings.
  const config = resolveConfig({ limits: { 'max-findings-per-rule': 1_000_000, 'max-findings': 1_000_000 } });
  return (await audited([{ path: join(root, 'traces/@octocat|<img src=x>.jsonl'), display: 'traces/@octocat|<img src=x>.jsonl' }], config)).report;
}

function render(markdown: string): string {
  return execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The HTML with every <code>…</code> removed: what is left is markup and our own prose. */
function outsideCode(html: string): string {
  return html.replace(/<code>[\s\S]*?<\/code>/g, '');
}

function tableRows(html: string, index: number): string[] {
  const table = [...html.matchAll(/<table>[\s\S]*?<\/table>/g)][index]?.[0] ?? '';
  return [...table.matchAll(/<tr>[\s\S]*?<\/tr>/g)].map((m) => m[0]);
}

describeWith(CMARK_GFM, 'comment rendering through cmark-gfm', () => {
  it('hostile trace text forms no mention, reference, link, image or element; tables keep their rows', async () => {
    const report = await hostileReport(HOSTILE.length * 3);
    // 33 orphan calls in one run without a catalog record: 33 errors and 1 catalog-missing note.
    expect(report.summary.findings).toEqual({ error: 33, warning: 0, note: 1 });
    const { markdown, findingsShown } = renderWithinBudget(report, COMMENT_LIMIT, { tail: [commentMarker('')] });
    expect(findingsShown).toBe(34);
    const html = render(markdown);
    // The hostile text is there, inert inside code elements.
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('@octocat please look');
    const prose = outsideCode(html);
    expect(prose).not.toMatch(/@octocat|#1\b|GH-2|#3\b/);
    expect(prose).not.toMatch(/<img|<script|<b>|<a |evil\.example|onerror/);
    expect(html.match(/<img/g)).toBeNull();
    expect(html.match(/<a /g)).toBeNull();
    // One marker only: ours, as the last thing, never one made from trace text.
    expect(html.match(/<!-- agent-trace-audit:comment -->/g)?.length).toBe(1);
    const triage = tableRows(html, 0);
    expect(triage.length).toBe(1 + report.rules.length);
    const findings = tableRows(html, 1);
    expect(findings.length).toBe(1 + 34);
    for (const row of findings.slice(1)) expect(row.match(/<td/g)?.length).toBe(4);
    // The rule table: rule, severity, count, first at (not compared: no New column); the guidance is collapsed below it.
    for (const row of triage.slice(1)) expect(row.match(/<td/g)?.length).toBe(4);
  });

  it('100,000 findings: the comment stays under 65,536 characters, says what was cut, and still renders cleanly', async () => {
    const report = await hostileReport(100_000);
    // 100,000 orphan calls in 100 runs of 1,000, none with a catalog record.
    expect(report.summary.findings).toEqual({ error: 100_000, warning: 0, note: 100 });
    const comment = renderWithinBudget(report, COMMENT_LIMIT, { tail: [commentMarker('')] });
    expect(comment.markdown.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(comment.findingsShown).toBeGreaterThan(100);
    expect(comment.markdown).toContain(`_Not shown here (to stay within GitHub's size limit): ${100_100 - comment.findingsShown} of 100100 finding(s). The JSON report has everything._`);
    const html = render(comment.markdown);
    expect(outsideCode(html)).not.toMatch(/@octocat|<img|<script|evil\.example/);
    expect(tableRows(html, 1).length).toBe(1 + comment.findingsShown);
    expect(comment.markdown.endsWith('<!-- agent-trace-audit:comment -->\n')).toBe(true);

    const summary = renderWithinBudget(report, SUMMARY_LIMIT);
    expect(summary.markdown.length).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(summary.findingsShown).toBe(1000);
    expect(summary.markdown).toContain('99100 of 100100 finding(s)');
  }, 120_000);

  it('the pull request comment: hostile file names and messages stay code; the only links are our docs, blob and run links', async () => {
    const report = await hostileReport(HOSTILE.length * 3);
    const empty: Report = { ...report, findings: [], rules: [] };
    const sha = 'c0ffee4d2b7a9e1f03c5d8b6a4e2f0d1c3b5a7e9';
    const { markdown } = renderComment(report, {
      verdict: { ...judge(report, { config: resolveConfig(), baseline: empty, defaultGate: 'new', allowEmpty: false }), headSha: sha, baseSha: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b' },
      comparison: { kind: 'compared', delta: findingDelta(empty, report) },
      files: { blobBase: `https://github.com/o/r/blob/${sha}`, tracked: new Set(report.findings.map((f) => f.file)) },
      more: { runUrl: 'https://github.com/o/r/actions/runs/1', artifactUrl: '' },
      details: [], metrics: [], base: [], timelines: () => [], tail: [commentMarker('')],
    });
    const html = render(markdown);
    const prose = outsideCode(html);
    expect(prose).not.toMatch(/@octocat|#1\b|GH-2|#3\b|<img|<script|<b>|evil\.example|onerror/);
    expect(html.match(/<!-- agent-trace-audit:comment -->/g)?.length).toBe(1);
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) expect(href).toMatch(/^https:\/\/github\.com\/(agent-trace-audit\/agent-trace-audit\/blob\/main\/docs\/rules\/[a-z-]+\.md|o\/r\/actions\/runs\/1|o\/r\/blob\/c0ffee4d2b7a9e1f03c5d8b6a4e2f0d1c3b5a7e9\/traces\/%40octocat%7C%3Cimg%20src%3Dx%3E\.jsonl#L\d+)$/);
  });
});
