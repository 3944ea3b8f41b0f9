import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { COMMENT_LIMIT, renderWithinBudget } from '../../src/report/render/budget.js';
import { buildReport } from '../../src/report/build.js';
import { FindingStore } from '../../src/audit/findings/finding-store.js';
import { mermaidLabel, mermaidSection, runGantt } from '../../src/report/render/mermaid.js';
import { timelineCollector } from '../../src/audit/timeline/collect.js';
import { BAR_FLAG, type RunTimeline } from '../../src/model/timeline.js';
import { audited, jsonl, tempTree } from '../helpers.js';
import { launchChromium } from './html/chromium.js';
import { mermaidPage, parseMermaid } from './mermaid-parse.js';
import { CHROMIUM, describeWith, runsWith } from '../system-tools.js';

let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
beforeAll(async () => {
  if (!runsWith(CHROMIUM)) return;
  chromium = await launchChromium();
  page = await mermaidPage(chromium);
});
afterAll(async () => {
  await chromium?.close();
});

const HOSTILE = [
  'click t1 call alert(1)',
  '%%{init: {"theme": "dark", "securityLevel": "loose"}}%%',
  'x\n  section injected\n  title pwned',
  'evil :crit, a1, 0, 99999',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  'title; dateFormat YYYY # ` [link](javascript:x) {a} (b) "c"',
];

async function auditTimelines(files: Record<string, string>) {
  const root = tempTree(files);
  const inputs = Object.keys(files).sort().map((name) => ({ path: join(root, name), display: name }));
  const config = resolveConfig({});
  const drawn = timelineCollector();
  const { report } = await audited(inputs, config, { onRun: drawn.onRun });
  return { report, timelines: drawn.timelines };
}

function blocks(markdown: string): string[] {
  return [...markdown.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
}

describe('mermaidLabel', () => {
  it('keeps no character Mermaid gives a meaning, no line break, and caps the length', () => {
    for (const text of HOSTILE) expect(mermaidLabel(text)).not.toMatch(/[;:#%{}[\]()<>"`\n\r]/);
    expect(mermaidLabel('read_file')).toBe('read_file');
    expect(mermaidLabel('a\nb;c')).toBe('a b_c');
    expect(mermaidLabel('')).toBe('_');
    expect(mermaidLabel('x'.repeat(100))).toBe(`${'x'.repeat(39)}…`);
  });
});

describeWith(CHROMIUM, 'gantt blocks', () => {
  it('draws the runs of examples/ with time-shaped findings, each bar labelled with its rule, and every block parses', async () => {
    const root = process.cwd();
    const names = ['clean/span-log.jsonl', 'dirty/span-log-orphan.jsonl', 'dirty/typed-events-unmatched.jsonl'];
    const config = resolveConfig({});
    const drawn = timelineCollector();
    const { report } = await audited(names.map((n) => ({ path: join(root, 'examples', n), display: n })), config, { onRun: drawn.onRun });
    const lines = mermaidSection(report, drawn.timelines, 12_000);
    const found = blocks(lines.join('\n'));
    // Only the orphan run has time-shaped findings (orphan-call, continued-while-outstanding); typed-events-unmatched has none.
    expect(found.length).toBe(1);
    expect(found[0]).toBe(
      [
        'gantt',
        '  title dirty/span-log-orphan.jsonl - run r_18 - seconds from run start',
        '  dateFormat x',
        '  axisFormat %S.%L',
        '  section model',
        // An llm span of 1 ms is drawn a fortieth of the run wide (3100 / 40 → 78 ms), so it shows as a bar.
        '  1. line 1 llm :done, t1, 0, 78',
        '  2. line 3 llm :done, t2, 3099, 3177',
        '  section web_search',
        '  3. line 2 continued-while-outstanding / orphan-call :crit, t3, 338, 3099',
      ].join('\n'),
    );
    for (const block of found) {
      const parsed = await parseMermaid(page, block);
      expect(parsed.error).toBeUndefined();
      expect(parsed.type).toBe('gantt');
    }
    expect((await parseMermaid(page, found[0]!)).tasks).toEqual([
      { task: '1. line 1 llm', section: 'model', crit: false, done: true, active: false },
      { task: '2. line 3 llm', section: 'model', crit: false, done: true, active: false },
      { task: '3. line 2 continued-while-outstanding / orphan-call', section: 'web_search', crit: true, done: false, active: false },
    ]);
  });

  it('a hostile tool name, run id or file name injects nothing: one section per tool, one task per call', async () => {
    const records = HOSTILE.map((tool, i) => ({ ts: `2026-09-07T10:00:0${i}.000Z`, run_id: HOSTILE[1], span_id: `s${i}`, kind: 'tool_call', call_id: `c${i}`, tool }));
    const { report, timelines } = await auditTimelines({ 'title x\n%%{init}%%.jsonl': jsonl(...records) });
    const found = blocks(mermaidSection(report, timelines, 60_000, { lanes: 20 }).join('\n'));
    expect(found.length).toBe(1);
    const parsed = await parseMermaid(page, found[0]!);
    expect(parsed.error).toBeUndefined();
    expect(parsed.tasks!.map((t) => t.section)).toEqual(HOSTILE.map((tool) => mermaidLabel(tool)));
    expect(parsed.tasks!.map((t) => t.task)).toEqual(HOSTILE.map((_, i) => `${i + 1}. line ${i + 1} orphan-call`));
    expect(parsed.tasks!.every((t) => t.crit)).toBe(true);
    expect(parsed.title).toBe(`title x %%_init_%%.jsonl - run ${mermaidLabel(HOSTILE[1]!, 50)} - seconds from run start`.replace(/%/g, '_'));
  });

  it('a run without timestamps is laid out by record order and its title says so', async () => {
    const timeline: RunTimeline = { file: 'a.jsonl', runId: null, timed: false, end: 3, lanes: ['model', 'read'], bars: [{ lane: 0, start: 0, end: 1, line: 1, callId: null, flags: BAR_FLAG.llm, storm: 0 }, { lane: 1, start: 1, end: 2, line: 2, callId: 'c', flags: BAR_FLAG.error | BAR_FLAG.storm, storm: 1 }], truncated: 0 };
    const gantt = runGantt(timeline);
    expect(gantt).toContain('title a.jsonl - record number - no timestamps');
    expect(gantt).toContain('2. line 2 error storm :crit, t2, 1, 2');
    expect((await parseMermaid(page, gantt)).error).toBeUndefined();
  });

  it('fits the budget: fewer bars, then fewer runs, then nothing', async () => {
    const bars = Array.from({ length: 200 }, (_, i) => ({ lane: i % 3, start: i * 5, end: i * 5 + 4, line: i + 1, callId: null, flags: 0, storm: 0 }));
    const runs: RunTimeline[] = [1, 2, 3, 4].map((n) => ({ file: `r${n}.jsonl`, runId: null, timed: true, end: 1000, lanes: ['a', 'b', 'c'], bars, truncated: 0 }));
    const findings = runs.map((r, i) => ({ ruleId: 'orphan-call', severity: 'error' as const, message: 'm', file: r.file, line: 1, runId: null, callId: null, tool: null, fingerprint: `${i}`.padStart(16, '0') }));
    const store = new FindingStore();
    for (const finding of findings) store.add(finding);
    const report = { ...buildReport({ files: [], runs: [], omittedRuns: { runs: 0, toolCalls: 0, toolResults: 0 }, catalogs: [], timelines: [], store, metrics: {} }, resolveConfig({})), findings };
    store.close();
    const full = mermaidSection(report, runs, 100_000);
    expect(blocks(full.join('\n')).length).toBe(3);
    expect(full.join('\n')).toContain('first 30 of 200 bars');
    const small = mermaidSection(report, runs, 700);
    expect(small.join('\n').length).toBeLessThanOrEqual(700);
    expect(blocks(small.join('\n')).length).toBe(1);
    expect(mermaidSection(report, runs, 200)).toEqual([]);
    // In a comment, the timelines ride in the kept tail and the findings list gives way.
    const many = { ...report, findings: Array.from({ length: 5000 }, (_, i) => ({ ...findings[i % 4]!, line: i + 1, message: 'a long message '.repeat(8) })) };
    const comment = renderWithinBudget(many, COMMENT_LIMIT, { tail: [...mermaidSection(many, runs, 12_000), '<!-- m -->'] });
    expect(comment.markdown.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(blocks(comment.markdown).length).toBe(3);
    expect(comment.findingsShown).toBeLessThan(1000);
    for (const block of blocks(full.join('\n'))) expect((await parseMermaid(page, block)).error).toBeUndefined();
  });

  it('an orphan that is the last record is drawn open past its start, not as a 1 ms sliver; a run with only a secret is not drawn', async () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 8, 7, 10, 0, 0, ms)).toISOString();
    const orphan = [
      { ts: at(0), run_id: 'r', span_id: 's0', kind: 'llm', end_ts: at(2000) },
      { ts: at(2000), run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'deploy', args: {} },
    ];
    const secret = [
      { ts: at(0), run_id: 'k', span_id: 's0', kind: 'tool_call', call_id: 'c1', tool: 'http_get', args: { headers: { 'X-Api-Key': 'AKIAIOSFODNN7EXAMPLE' } } },
      { ts: at(10), run_id: 'k', span_id: 's1', kind: 'tool_result', call_id: 'c1', tool: 'http_get', result: { status: 200 } },
    ];
    const { report, timelines } = await auditTimelines({ 'a-secret.jsonl': jsonl(...secret), 'b-orphan.jsonl': jsonl(...orphan) });
    expect(report.findings.map((f) => f.ruleId)).toContain('secret-in-trace');
    const found = blocks(mermaidSection(report, timelines, 12_000).join('\n'));
    expect(found.length).toBe(1);
    // The run ends at 2000 ms, where the call was made: the open bar runs a tenth of the run past it.
    expect(found[0]).toContain('  2. line 2 orphan-call :crit, t2, 2000, 2200');
    expect(found[0]).toContain('b-orphan.jsonl');
  });
});
