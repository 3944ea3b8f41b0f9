import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Finding } from '../../../src/model/finding.js';
import { HTML_MAX_FINDINGS, pageData } from '../../../src/report/html/page-data.js';
import { renderHtml } from '../../../src/report/html/render.js';
import { reportSchema, type Report } from '../../../src/report/schema.js';
import { BAR_FLAG, type RunTimeline, type TimelineBar } from '../../../src/model/timeline.js';
import { tempTree } from '../../helpers.js';
import { launchChromium } from './chromium.js';
import { CHROMIUM, itWith, runsWith } from '../../system-tools.js';

let chromium: Awaited<ReturnType<typeof launchChromium>>;
beforeAll(async () => {
  if (runsWith(CHROMIUM)) chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});

const FINDINGS = 100_000;
const CALLS = 50_000;
const RULES = ['orphan-call', 'retry-storm', 'unknown-tool', 'late-result', 'secret-in-trace'];
const SEVERITIES = ['error', 'warning', 'note'] as const;

function largeReport(): { report: Report; timelines: RunTimeline[] } {
  const findings: Finding[] = [];
  for (let i = 0; i < FINDINGS; i++) {
    findings.push({
      ruleId: RULES[i % 5]!,
      severity: SEVERITIES[i % 3]!,
      message: `finding ${i} about tool 'tool_${i % 40}'`,
      file: `traces/file-${i % 20}.jsonl`,
      line: i + 1,
      runId: i % 2 === 0 ? 'big' : null,
      callId: `c${i}`,
      tool: `tool_${i % 40}`,
      fingerprint: i.toString(16).padStart(16, '0'),
    });
  }
  const counts = { error: 0, warning: 0, note: 0 };
  for (const f of findings) counts[f.severity] += 1;
  const report = reportSchema.parse({
    schemaVersion: 1,
    tool: { name: 'agent-trace-audit', version: '0.0.0' },
    summary: { files: 20, runs: 1, toolCalls: CALLS, toolResults: CALLS - 100, findings: counts },
    files: [],
    runs: [],
    rules: RULES.map((id) => ({ id, severity: 'error', summary: 's', likelyCause: 'c', nextAction: 'n' })),
    metrics: {},
    findings,
  });
  const bars: TimelineBar[] = [];
  for (let i = 0; i < CALLS; i++) {
    const open = i % 500 === 0;
    bars.push({ lane: i % 40, start: i * 10, end: open ? null : i * 10 + 25, line: i + 1, callId: `c${i}`, flags: open ? BAR_FLAG.open : i % 7 === 0 ? BAR_FLAG.error : 0, storm: 0 });
  }
  const lanes = Array.from({ length: 40 }, (_, i) => `tool_${i}`);
  return { report, timelines: [{ file: 'traces/file-0.jsonl', runId: 'big', timed: true, end: CALLS * 10 + 25, lanes, bars, truncated: 0 }] };
}

itWith(CHROMIUM, 'renders 100,000 findings and a 50,000-call run, and filters, within a few seconds', async () => {
  const { report, timelines } = largeReport();
  const out = join(tempTree({}), 'large.html');
  writeFileSync(out, renderHtml(report, timelines));
  const page = await chromium.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const opened = Date.now();
  await page.goto(pathToFileURL(out).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
  const loadMs = Date.now() - opened;
  expect(await page.locator('#shown-count').innerText()).toBe('100000 of 100000 finding(s)');
  // Only the rows in view exist.
  expect(await page.locator('#rows .row').count()).toBeLessThan(60);

  const filtered = Date.now();
  await page.selectOption('#f-tool', { label: 'tool_7' });
  await page.selectOption('#f-severity', { label: 'warning' });
  expect(await page.locator('#shown-count').innerText()).toBe('834 of 100000 finding(s)');
  const filterMs = Date.now() - filtered;

  await page.locator('#list').evaluate((list) => (list.scrollTop = list.scrollHeight));
  await page.waitForFunction(() => document.querySelector('#rows .row:last-child .loc')?.textContent?.includes(':99968'));

  const clicked = Date.now();
  await page.locator('#rows .row').last().click();
  expect(await page.locator('#detail h3').innerText()).toBe('unknown-tool');
  expect(await page.locator('#detail dl').innerText()).toContain('traces/file-7.jsonl:99968');
  const clickMs = Date.now() - clicked;
  console.log(`100k findings / 50k calls: load ${loadMs} ms, two filters ${filterMs} ms, click and redraw ${clickMs} ms`);
  expect(loadMs).toBeLessThan(5000);
  expect(filterMs).toBeLessThan(2000);
  expect(clickMs).toBeLessThan(2000);
  expect(errors).toEqual([]);
  await page.close();
});

itWith(CHROMIUM, 'past 100,000 findings, holds the most severe, counts every rule in full and says what is only in report.json', async () => {
  const { report, timelines } = largeReport();
  // 30,000 more notes of a rule of their own: beyond the page's cap.
  const extra: Finding[] = Array.from({ length: 30_000 }, (_, i) => ({
    ruleId: 'unused-tool',
    severity: 'note',
    message: `extra note ${i}`,
    file: 'traces/file-99.jsonl',
    line: i + 1,
    runId: null,
    callId: null,
    tool: null,
    fingerprint: (FINGERPRINT_BASE + i).toString(16).padStart(16, '0'),
  }));
  const findings = [...report.findings, ...extra].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  const big = { ...report, findings, summary: { ...report.summary, findings: { ...report.summary.findings, note: report.summary.findings.note + extra.length } } };
  const data = pageData(big, timelines);
  expect(data.findings.rule).toHaveLength(HTML_MAX_FINDINGS);
  expect(data.omitted).toBe(30_000);
  // Every error and warning is kept; the notes fill the rest, in report order.
  const kept = data.findings.severity.reduce((n: Record<number, number>, s) => ((n[s] = (n[s] ?? 0) + 1), n), {});
  expect(kept).toEqual({ 0: 33_334, 1: 33_333, 2: 33_333 });
  const unused = data.strings.rules.indexOf('unused-tool');
  expect(data.ruleTotals[unused]).toBe(30_000);
  expect(data.ruleTotals.reduce((a, b) => a + b, 0)).toBe(130_000);

  const out = join(tempTree({}), 'capped.html');
  writeFileSync(out, renderHtml(big, timelines));
  const page = await chromium.context.newPage();
  await page.goto(pathToFileURL(out).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
  expect(await page.locator('#shown-count').innerText()).toBe('100000 of 100000 finding(s); 30000 less severe finding(s) are only in report.json');
  expect(await page.locator('#triage-body').innerText()).toContain('30000');
  await page.close();
});

const FINGERPRINT_BASE = 0x100000;
