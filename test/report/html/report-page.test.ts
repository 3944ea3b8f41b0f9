import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempTree } from '../../helpers.js';
import { cli } from '../../cli/run-cli.js';
import { launchChromium } from './chromium.js';
import { CHROMIUM, describeWith, runsWith } from '../../system-tools.js';

let chromium: Awaited<ReturnType<typeof launchChromium>>;
beforeAll(async () => {
  if (runsWith(CHROMIUM)) chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});

/** Writes the html report of `paths` (relative to cwd) and opens it from file://. */
async function openReport(args: string[], cwd = process.cwd()): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const out = join(tempTree({}), 'report.html');
  const result = await cli(['audit', ...args, '--format', 'html', '--output', out, '--fail-on', 'never'], cwd);
  // With --output, the one-line verdict (and nothing else) goes to stderr.
  expect(result.stderr).toMatch(/^✅ not gated \(fail-on: never\): [^\n]+\n$/);
  expect(result.code).toBe(0);
  const page = await chromium.context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(out).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10_000 });
  return { page, dialogs, errors };
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();

describeWith(CHROMIUM, 'html report from examples/', () => {
  it('shows the counts, filters by rule, severity, tool and file, and shows a finding on click', async () => {
    const { page, errors } = await openReport(['examples']);
    expect(await text(page, '#count-error')).toBe('3');
    expect(await text(page, '#count-warning')).toBe('2');
    expect(await text(page, '#count-note')).toBe('5');
    expect(await text(page, '#count-files')).toBe('5');
    expect(await text(page, '#count-runs')).toBe('5');
    expect(await text(page, '#count-calls')).toBe('5');
    expect(await page.locator('#triage-body tr').count()).toBe(7);
    expect(await text(page, '#shown-count')).toBe('10 of 10 finding(s)');
    expect(await page.locator('#rows .row').count()).toBe(10);

    await page.selectOption('#f-rule', { label: 'catalog-missing' });
    expect(await text(page, '#shown-count')).toBe('3 of 10 finding(s)');
    await page.selectOption('#f-severity', { label: 'error' });
    expect(await text(page, '#shown-count')).toBe('0 of 10 finding(s)');
    await page.click('#f-clear');
    await page.selectOption('#f-severity', { label: 'error' });
    expect(await text(page, '#shown-count')).toBe('3 of 10 finding(s)');
    await page.click('#f-clear');
    await page.selectOption('#f-tool', { label: 'web_search' });
    expect(await text(page, '#shown-count')).toBe('2 of 10 finding(s)');
    await page.click('#f-clear');
    await page.selectOption('#f-file', { label: 'examples/dirty/typed-events-unmatched.jsonl' });
    expect(await text(page, '#shown-count')).toBe('3 of 10 finding(s)');
    expect(await page.locator('#rows .row .rule').allInnerTexts()).toEqual(['unused-tool', 'unused-tool', 'unmatched-result']);

    await page.click('#f-clear');
    await page.selectOption('#f-rule', { label: 'orphan-call' });
    await page.click('#rows .row');
    expect(await text(page, '#detail h3')).toBe('orphan-call');
    expect(await text(page, '#detail dl')).toContain('examples/dirty/span-log-orphan.jsonl:2');
    expect(await text(page, '#detail dl')).toContain("call 'c_9' to 'web_search'");
    // The finding's run is drawn, with the orphan open-ended.
    expect(await page.locator('#run-select option:checked').innerText()).toContain('examples/dirty/span-log-orphan.jsonl · run r_18');
    expect(await text(page, '#timeline-note')).toContain('milliseconds from the run');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws a run without timestamps by record order and says so', async () => {
    const root = tempTree({
      'untimed.jsonl': [
        { run_id: 'u1', span_id: 's1', kind: 'llm' },
        { run_id: 'u1', span_id: 's2', kind: 'tool_call', call_id: 'c1', tool: 'read_file' },
        { run_id: 'u1', span_id: 's3', kind: 'tool_result', call_id: 'c1', tool: 'read_file' },
        { run_id: 'u1', span_id: 's4', kind: 'tool_call', call_id: 'c2', tool: 'write_file' },
      ]
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(''),
    });
    const { page, errors } = await openReport(['untimed.jsonl'], root);
    expect(await text(page, '#timeline-note')).toBe('This run has records without timestamps: it is drawn by record order, not by time.');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describeWith(CHROMIUM, 'a run timeline', () => {
  it('marks a budget miss, a retry storm of failing calls and an orphan; clicking a bar describes it', async () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 8, 7, 10, 0, 0, ms)).toISOString();
    const records: unknown[] = [
      { ts: at(0), run_id: 'd', span_id: 'l0', kind: 'llm', end_ts: at(300) },
      { ts: at(300), run_id: 'd', span_id: 'f0', kind: 'tool_call', call_id: 'c1', tool: 'fetch_page', args: { u: 1 }, deadline_ms: 500 },
      { ts: at(1400), run_id: 'd', span_id: 'f1', kind: 'tool_result', call_id: 'c1', tool: 'fetch_page' },
    ];
    for (let i = 0; i < 4; i++) {
      records.push({ ts: at(1600 + i * 250), run_id: 'd', span_id: `a${i}`, kind: 'tool_call', call_id: `s${i}`, tool: 'search', args: { q: 'same' } });
      records.push({ ts: at(1800 + i * 250), run_id: 'd', span_id: `b${i}`, kind: 'tool_result', call_id: `s${i}`, tool: 'search', error_class: 'RateLimit' });
    }
    records.push({ ts: at(3000), run_id: 'd', span_id: 'h', kind: 'tool_call', call_id: 'h1', tool: 'run_tests', args: {} });
    records.push({ ts: at(4000), run_id: 'd', span_id: 'l1', kind: 'llm' });
    const root = tempTree({ 'demo.jsonl': records.map((r) => `${JSON.stringify(r)}\n`).join('') });
    const { page, errors } = await openReport(['demo.jsonl'], root);
    expect(await text(page, '#timeline-note')).toBe('Time axis: milliseconds from the run\u2019s first record (run length 4000 ms).');
    await page.locator('#timeline').scrollIntoViewIfNeeded();
    const box = (await page.locator('#timeline').boundingBox())!;
    const laneY = (lane: number) => box.y + 20 + lane * 20 + 10;
    const xAt = (ms: number) => box.x + 170 + (ms * (box.width - 170 - 10)) / 4000;
    await page.mouse.click(xAt(800), laneY(1));
    expect(await text(page, '#bar-detail')).toBe('fetch_page · call, over its deadline · demo.jsonl:2 · call c1 · 300 ms');
    await page.mouse.click(xAt(1700), laneY(2));
    expect(await text(page, '#bar-detail')).toBe('search · call, error result, part of a retry storm · demo.jsonl:4 · call s0 · 1600 ms');
    await page.mouse.click(xAt(3900), laneY(3));
    expect(await text(page, '#bar-detail')).toBe('run_tests · call with no result (orphan) · demo.jsonl:12 · call h1 · 3000 ms');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describeWith(CHROMIUM, 'the findings list', () => {
  it('shortens a long location from the left, keeping the file name and line whole, and shows it all on hover', async () => {
    const deep = 'agent-suite/recordings/nightly-2026-09-07/claude-code/session-7.jsonl';
    const long = 'agent-suite/recordings/a-session-whose-name-is-longer-than-the-column.jsonl';
    const call = (tool: string) => `${JSON.stringify({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool })}\n`;
    const root = tempTree({ [deep]: call('grep'), [long]: call('ls'), 'short.jsonl': call('cat') });
    const { page, errors } = await openReport(['.'], root);
    const cells = page.locator('#rows .row .loc');
    const shown = [...new Set(await cells.allInnerTexts())].sort();
    const titles = [...new Set(await Promise.all((await cells.all()).map((cell) => cell.getAttribute('title'))))].sort();
    // At most 30 characters from the end, starting at a folder; never less than the file name and line.
    expect(shown).toEqual(['short.jsonl:1', '\u2026/a-session-whose-name-is-longer-than-the-column.jsonl:1', '\u2026claude-code/session-7.jsonl:1']);
    expect(titles).toEqual([`${long}:1`, `${deep}:1`, 'short.jsonl:1']);
    // A location of 30 characters fits its column: nothing is cut off on the right.
    expect(await cells.evaluateAll((list) => list.filter((cell) => !cell.textContent!.includes('longer')).every((cell) => cell.scrollWidth <= cell.clientWidth))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describeWith(CHROMIUM, 'a hostile trace', () => {
  const PAYLOADS = [
    '<script>window.__pwned = 1</script>',
    '<img src=x onerror="window.__pwned=2;alert(2)">',
    'javascript:window.__pwned=3',
    '</script><script>window.__pwned=4</script>',
    '<svg onload=alert(5)>',
    '"><iframe srcdoc="<script>parent.__pwned=6</script>">',
  ];

  it('executes nothing: no flag set, no dialog, no element injected, the text shown as text', async () => {
    const records: unknown[] = [{ type: 'catalog', run_id: PAYLOADS[3], catalog_names: ['safe_tool'] }];
    PAYLOADS.forEach((payload, i) => {
      const ts = `2026-09-07T10:00:0${i}.000Z`;
      records.push({ ts, run_id: PAYLOADS[3], span_id: `a${i}`, kind: 'tool_call', call_id: payload, tool: payload, args: { url: payload } });
      if (i % 2 === 0) records.push({ ts, run_id: PAYLOADS[3], span_id: `b${i}`, kind: 'tool_result', call_id: payload, tool: payload, result: payload, error_class: payload });
    });
    const root = tempTree({ '<img src=x onerror=alert(7)>.jsonl': records.map((r) => `${JSON.stringify(r)}\n`).join('') });
    const { page, dialogs, errors } = await openReport(['.'], root);
    expect(Number(await text(page, '#count-error'))).toBeGreaterThan(0);
    // Go through every finding and every bar of the run.
    const total = Number((await text(page, '#shown-count')).split(' ')[0]);
    for (let i = 0; i < Math.min(total, 20); i++) await page.locator('#rows .row').nth(i).click();
    await page.locator('#timeline').scrollIntoViewIfNeeded();
    const box = (await page.locator('#timeline').boundingBox())!;
    for (let lane = 0; lane < PAYLOADS.length; lane++) {
      await page.mouse.click(box.x + 400, box.y + 30 + lane * 20);
      expect((await text(page, '#bar-detail')).startsWith(`${PAYLOADS[lane]} · call`)).toBe(true);
    }
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => document.querySelectorAll('img, svg, iframe, a, object, embed').length)).toBe(0);
    expect(await page.evaluate(() => document.scripts.length)).toBe(2);
    const shown = await page.locator('#rows').innerText();
    expect(shown).toContain('<img src=x onerror=alert(7)>.jsonl');
    expect(await page.locator('#run-select option').first().innerText()).toContain('</script><script>window.__pwned=4</script>');
    await page.close();
  });

  it('keeps trace text out of the markup: the data is JSON with < escaped', async () => {
    const root = tempTree({ 'h.jsonl': `${JSON.stringify({ ts: '2026-09-07T10:00:00Z', run_id: 'r', span_id: 's', kind: 'tool_call', call_id: 'c', tool: PAYLOADS[3] })}\n` });
    const out = join(root, 'r.html');
    expect((await cli(['audit', 'h.jsonl', '--format', 'html', '--output', out, '--fail-on', 'never'], root)).code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html.match(/<script/g)!.length).toBe(2);
    expect(html).not.toContain('__pwned=4</script>');
    expect(html).toContain('\\u003c/script\\u003e\\u003cscript\\u003ewindow.__pwned=4');
    expect(html).not.toMatch(/https?:\/\//);
    writeFileSync(out, '');
  });
});
