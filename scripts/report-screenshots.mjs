// Screenshots of the HTML report of examples/ for the README: docs/images/report-*.png.
// Needs `npm run build` and Debian's Chromium (/usr/bin/chromium). No network.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const work = mkdtempSync(join(tmpdir(), 'ata-shots-'));
const html = join(work, 'report.html');
const audit = spawnSync(process.execPath, ['dist/cli.js', 'audit', 'examples', '--format', 'html', '--output', html, '--fail-on', 'never'], { encoding: 'utf8' });
if (audit.status !== 0) throw new Error(`audit failed: ${audit.stderr}`);

// A generated run that shows more at once: a budget miss, a retry storm of failing calls, an orphan.
const at = (ms) => new Date(Date.UTC(2026, 8, 7, 10, 0, 0, ms)).toISOString();
const demo = [];
const rec = (r) => demo.push({ run_id: 'demo', span_id: `s${demo.length}`, ...r });
rec({ ts: at(0), kind: 'llm', end_ts: at(300) });
rec({ ts: at(300), kind: 'tool_call', call_id: 'c1', tool: 'fetch_page', args: { url: 'https://example.test/' }, deadline_ms: 500 });
rec({ ts: at(1400), kind: 'tool_result', call_id: 'c1', tool: 'fetch_page' });
rec({ ts: at(1400), kind: 'llm', end_ts: at(1600) });
for (let i = 0; i < 5; i++) {
  rec({ ts: at(1600 + i * 250), kind: 'tool_call', call_id: `s${i}`, tool: 'search', args: { q: 'same' } });
  rec({ ts: at(1700 + i * 250), kind: 'tool_result', call_id: `s${i}`, tool: 'search', error_class: 'RateLimit' });
}
rec({ ts: at(2900), kind: 'llm', end_ts: at(3100) });
rec({ ts: at(3100), kind: 'tool_call', call_id: 'h1', tool: 'run_tests', args: {} });
rec({ ts: at(3300), kind: 'llm', end_ts: at(4200) });
writeFileSync(join(work, 'demo.jsonl'), demo.map((r) => `${JSON.stringify(r)}\n`).join(''));
const demoHtml = join(work, 'demo.html');
const demoAudit = spawnSync(process.execPath, [resolve('dist/cli.js'), 'audit', 'demo.jsonl', '--format', 'html', '--output', demoHtml, '--fail-on', 'never'], { cwd: work, encoding: 'utf8' });
if (demoAudit.status !== 0) throw new Error(`audit failed: ${demoAudit.stderr}`);

const context = await chromium.launchPersistentContext(join(work, 'profile'), {
  executablePath: '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 820 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await context.newPage();
await page.goto(pathToFileURL(html).href);
await page.waitForSelector('body[data-ready="1"]');
const out = (name) => resolve('docs/images', `report-${name}.png`);

await page.screenshot({ path: out('overview') });
await page.selectOption('#f-rule', { label: 'orphan-call' });
await page.click('#rows .row');
await page.locator('#runs').screenshot({ path: out('timeline') });
await page.click('#f-clear');
await page.selectOption('#f-severity', { label: 'error' });
await page.locator('#rows .row').nth(1).click();
await page.locator('#findings').screenshot({ path: out('findings') });

await page.goto(pathToFileURL(demoHtml).href);
await page.waitForSelector('body[data-ready="1"]');
await page.locator('#runs').screenshot({ path: out('storm') });

await context.close();
rmSync(work, { recursive: true, force: true });
console.log('wrote docs/images/report-overview.png, report-timeline.png, report-findings.png, report-storm.png');
