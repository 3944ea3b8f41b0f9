// Screenshots of the HTML report of examples/ for the README: docs/images/report-*.png.
// Needs `npm run build` and Debian's Chromium (/usr/bin/chromium). No network.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const work = mkdtempSync(join(tmpdir(), 'ata-shots-'));
const html = join(work, 'report.html');
const audit = spawnSync(process.execPath, ['dist/cli.js', 'audit', 'examples', '--format', 'html', '--output', html, '--fail-on', 'never'], { encoding: 'utf8' });
if (audit.status !== 0) throw new Error(`audit failed: ${audit.stderr}`);

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

await context.close();
rmSync(work, { recursive: true, force: true });
console.log('wrote docs/images/report-overview.png, report-timeline.png, report-findings.png');
