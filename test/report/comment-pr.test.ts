import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { COMMENT_TARGET, renderComment, type RenderedComment } from '../../src/report/comment/render.js';
import { ruleDocsUrl } from '../../src/report/render/rule-docs.js';
import { tempDir } from '../helpers.js';
import { describeCorpus } from '../public-corpus.js';
import { BASE_ONLY, BASE_SHA, CORPUS, HEAD_ONLY, HEAD_SHA, pullRequestRun, REPO_URL, type PullRequestRun } from './pr-run.js';

// The comment of a realistic pull request run (82 files, 500 findings, 16 new), rendered by cmark-gfm (GitHub's renderer).
const GOLDEN = 'test/report/golden/comment-pr.md';

function render(markdown: string): string {
  return execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8' });
}

const decode = (html: string) => html.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

describeCorpus('the comment of a realistic pull request run', [...CORPUS], () => {
  let run: PullRequestRun;
  let comment: RenderedComment;
  let html: string;
  beforeAll(async () => {
    run = await pullRequestRun();
    comment = renderComment(run.head, run.input);
    html = render(comment.markdown);
  }, 120_000);

  const newItems = () => {
    const list = /<strong>New in this PR:[\s\S]*?<ul>([\s\S]*?)<\/ul>/.exec(html)![1]!;
    return [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
  };

  it('is the run the issue describes: 82 files, 500 findings, 16 new and 40 fixed; matches its golden file', () => {
    expect(run.head.files.length).toBe(82);
    expect(run.head.findings.length).toBe(642); // 500 before the agentbench, swe-agent and other new formats read more of these files (154 ingest-notes among them)
    const added = run.head.findings.filter((f) => HEAD_ONLY.includes(f.file));
    const fixed = run.base.findings.filter((f) => BASE_ONLY.includes(f.file));
    expect([added.length, fixed.length]).toEqual([16, 40]);
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, comment.markdown);
    expect(comment.markdown).toBe(readFileSync(GOLDEN, 'utf8'));
    expect(comment.markdown.length).toBeLessThanOrEqual(COMMENT_TARGET);
    expect(comment.left).toEqual([]);
  });

  it('lists every new finding on its own line with its whole message, its rule linked to its docs', () => {
    const added = run.head.findings.filter((f) => HEAD_ONLY.includes(f.file));
    expect(html).toContain(`<strong>New in this PR:</strong> 16 finding(s):`);
    const items = newItems();
    expect(items.length).toBe(16);
    for (const item of items) {
      const rule = /<a href="([^"]*)"><code>([a-z-]+)<\/code><\/a>/.exec(item)!;
      expect(decode(rule[1]!)).toBe(ruleDocsUrl(rule[2]!));
      // The message: the last code span, whole (every message of this run is under 300 characters).
      const spans = [...item.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => decode(m[1]!));
      const message = spans.at(-1)!;
      expect(message.endsWith('…')).toBe(false);
      expect(added.some((f) => f.message === message && f.ruleId === rule[2])).toBe(true);
    }
    expect(new Set(items.map((item) => [...item.matchAll(/<code>([^<]*)<\/code>/g)].at(-1)![1])).size).toBeGreaterThan(8);
  });

  it('links a location only when its file is committed: the examples yes, the suite trace written during the run no', () => {
    const items = newItems();
    const linked = items.filter((item) => item.includes(`${REPO_URL}/blob/`));
    const plain = items.filter((item) => item.includes('<code>out/suite-new.jsonl:'));
    expect(plain.length).toBe(run.head.findings.filter((f) => f.file === 'out/suite-new.jsonl').length);
    expect(plain.length).toBeGreaterThan(0);
    for (const item of plain) expect(item).not.toContain(`${REPO_URL}/blob/`);
    expect(linked.length + plain.length).toBe(16);
    for (const item of linked) {
      const [, href, place] = new RegExp(`<a href="(${REPO_URL}/blob/[^"]*)"><code>([^<]*)</code></a>`).exec(item)!;
      const [path, line] = place!.split(':') as [string, string];
      expect(decode(href!)).toBe(`${REPO_URL}/blob/${HEAD_SHA}/${path}#L${line}`);
      expect(run.tracked.has(path)).toBe(true);
    }
    // No link anywhere to an archive member or to a file that is not committed.
    for (const [, href] of html.matchAll(new RegExp(`<a href="(${REPO_URL}/blob/[^"#]*)`, 'g'))) {
      const path = decode(href!).slice(`${REPO_URL}/blob/${HEAD_SHA}/`.length);
      expect(run.tracked.has(decodeURIComponent(path))).toBe(true);
    }
    expect(html).not.toMatch(/\.eval\/samples[^"]*"/);
  });

  it('has a rule table of only the rules with new or fixed findings: no 0 | 0 row', () => {
    const table = /<table>[\s\S]*?<\/table>/.exec(html)![0];
    const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1]!));
    expect(rows[0]).toEqual(['Rule', 'Severity', 'Count', 'New', 'Fixed']);
    const changed = new Set([...run.head.findings.filter((f) => HEAD_ONLY.includes(f.file)), ...run.base.findings.filter((f) => BASE_ONLY.includes(f.file))].map((f) => f.ruleId));
    expect(rows.length - 1).toBe(changed.size);
    for (const row of rows.slice(1)) expect(row[3] === '0' && row[4] === '0').toBe(false);
    const all = new Set(run.head.findings.map((f) => f.ruleId));
    const unchanged = [...all].filter((id) => !changed.has(id)).length;
    expect(html).toContain(`${unchanged} more rule(s) with findings this PR did not change`);
  });

  it('opens with the verdict and the commits; the new findings come before the table', () => {
    expect(html).toContain(`Head <code>${HEAD_SHA.slice(0, 7)}</code> compared with base <code>${BASE_SHA.slice(0, 7)}</code>.`);
    expect(html.indexOf('New in this PR')).toBeLessThan(html.indexOf('Fixed in this PR'));
    expect(html.indexOf('Fixed in this PR')).toBeLessThan(html.indexOf('<table>'));
  });

  // Debian's Chromium draws the comment with GitHub's markdown metrics (scripts/comment-screenshot.mjs).
  it.runIf(existsSync('/usr/bin/chromium'))('stays one screen tall (1,000 × 1,400 px) to the end of the new findings', () => {
    const shot = join(tempDir('ata-shot-'), 'comment.png');
    const out = execFileSync(process.execPath, ['scripts/comment-screenshot.mjs', GOLDEN, shot], { encoding: 'utf8', timeout: 100_000 });
    const newEnd = Number(/new findings end at (\d+) px/.exec(out)![1]);
    expect(newEnd).toBeGreaterThan(600);
    expect(newEnd).toBeLessThanOrEqual(1400);
    expect(readFileSync(shot).subarray(1, 4).toString('latin1')).toBe('PNG');
  }, 120_000);
});

