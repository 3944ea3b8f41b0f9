// A screenshot of the pull request comment of the realistic pull request run (82 files) (the golden file
// test/report/golden/comment-pr.md) as GitHub shows it: rendered by cmark-gfm,
// styled like a GitHub comment (14px system font, 1.5 line height, GitHub's table and code
// metrics), 1,000 px wide, every <details> collapsed. Writes docs/images/comment.png and
// prints the rendered height. Needs cmark-gfm and Debian's Chromium (/usr/bin/chromium). No network.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const source = process.argv[2] ?? 'test/report/golden/comment-pr.md';
const target = process.argv[3] ?? 'docs/images/comment.png';
const body = execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: readFileSync(source, 'utf8'), encoding: 'utf8' });

// The metrics of GitHub's markdown-body stylesheet that set the height of a comment.
const css = `
body { margin: 0; background: #fff; }
.comment { box-sizing: border-box; width: 1000px; padding: 16px; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
.comment > *:first-child { margin-top: 0 !important; }
h2 { font-size: 1.5em; font-weight: 600; line-height: 1.25; margin: 24px 0 16px; padding-bottom: .3em; border-bottom: 1px solid #d1d9e0b3; }
h3 { font-size: 1.25em; font-weight: 600; line-height: 1.25; margin: 24px 0 16px; }
p, ul, table, details, pre { margin: 0 0 16px; }
ul { padding-left: 2em; } li + li { margin-top: .25em; }
a { color: #0969da; text-decoration: none; }
code { font: 85% ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace; padding: .2em .4em; background: #818b981f; border-radius: 6px; white-space: break-spaces; }
table { border-spacing: 0; border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto; }
td, th { padding: 6px 13px; border: 1px solid #d1d9e0; } th { font-weight: 600; } tr:nth-child(2n) { background: #f6f8fa; }
summary { cursor: pointer; display: list-item; }
`;
const work = mkdtempSync(join(tmpdir(), 'ata-comment-shot-'));
const page = join(work, 'comment.html');
writeFileSync(page, `<!doctype html><meta charset="utf-8"><style>${css}</style><div class="comment">${body}</div>`);
const context = await chromium.launchPersistentContext(join(work, 'profile'), {
  executablePath: '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1000, height: 800 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const tab = await context.newPage();
  await tab.goto(pathToFileURL(page).href);
  const height = await tab.locator('.comment').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  // The bottom of the list of new findings (the first list after "New in this PR"), from the top of the comment.
  const newEnd = await tab.locator('.comment').evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    const lead = [...el.querySelectorAll('strong')].find((s) => s.textContent.startsWith('New in this PR'));
    let node = lead?.closest('p')?.nextElementSibling;
    while (node && node.tagName !== 'UL' && node.tagName !== 'P') node = node.nextElementSibling;
    const end = node?.tagName === 'UL' ? node : lead?.closest('p');
    return end ? Math.ceil(end.getBoundingClientRect().bottom - top) : 0;
  });
  await tab.locator('.comment').screenshot({ path: resolve(target) });
  console.log(`${source}: ${readFileSync(source, 'utf8').length} characters, ${height} px tall at 1000 px wide (collapsed), new findings end at ${newEnd} px; wrote ${target}`);
} finally {
  await context.close();
  rmSync(work, { recursive: true, force: true });
}
