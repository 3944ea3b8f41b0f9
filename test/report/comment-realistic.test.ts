import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMENT_TARGET, renderComment } from '../../src/report/comment/render.js';
import { ruleDocsUrl } from '../../src/report/rule-docs.js';
import { tempDir } from '../helpers.js';
import { BASE_ONLY, BASE_SHA, HEAD_ONLY, HEAD_SHA, PUBLIC_FILES, realisticRun, REPO_URL } from './realistic-run.js';
import { describeCorpus } from '../public-corpus.js';

// The comment of a realistic 45-file pull request run, rendered by cmark-gfm (GitHub's renderer; .ci/run installs it).
const GOLDEN = 'test/report/golden/comment-realistic.md';

function render(markdown: string): string {
  return execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8' });
}

const blob = (file: string, line: number) => `${REPO_URL}/blob/${HEAD_SHA}/${file}#L${line}`;
const decode = (html: string) => html.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

describeCorpus('the comment of a realistic pull request run', PUBLIC_FILES, async () => {
  const run = await realisticRun();
  const comment = renderComment(run.head, run.input);
  const html = render(comment.markdown);

  it('matches its golden file, fits 12,000 characters, leaves nothing out', () => {
    expect(run.head.files.length).toBe(45);
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, comment.markdown);
    expect(comment.markdown).toBe(readFileSync(GOLDEN, 'utf8'));
    expect(comment.markdown.length).toBeLessThanOrEqual(COMMENT_TARGET);
    expect(comment.left).toEqual([]);
    expect(comment.rowsShown).toBe(comment.rules);
  });

  it('opens with the verdict and the head and base commits', () => {
    const first = html.split('\n').slice(0, 2).join('\n');
    // The one-line verdict (gate: new against the base report): the new errors, and all of them.
    const s = run.head.summary.findings;
    const newErrors = run.input.comparison.kind === 'compared' ? run.input.comparison.delta.added.filter((f) => f.severity === 'error').length : -1;
    expect(first).toContain(`<h2>agent-trace-audit: ❌ ${newErrors} new errors (${s.error} errors in all)</h2>`);
    expect(html).toContain(`<strong>Failed</strong> (fail-on: error, gate: new): <strong>${s.error}</strong> error(s)`);
    expect(html).toContain(`Head <code>${HEAD_SHA.slice(0, 7)}</code> compared with base <code>${BASE_SHA.slice(0, 7)}</code>.`);
  });

  it('lists the new findings, secret first, each linked to its docs page and to the file at the head commit', () => {
    // New = the head findings in the files the PR adds; fixed = the base findings in the file it deletes (fingerprints name the file).
    const added = run.head.findings.filter((f) => HEAD_ONLY.includes(f.file));
    const fixed = run.base.findings.filter((f) => BASE_ONLY.includes(f.file));
    expect(added.length).toBeGreaterThan(5);
    expect(html).toContain(`<strong>New in this PR:</strong> ${added.length} finding(s), the 5 most urgent:`);
    expect(html).toContain(`<strong>Fixed in this PR:</strong> ${fixed.length} finding(s):`);
    const list = /<strong>New in this PR:[\s\S]*?<ul>([\s\S]*?)<\/ul>/.exec(html)![1]!;
    const items = [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(items.length).toBe(6);
    const links = items.slice(0, 5).map((item) => [...item.matchAll(/<a href="([^"]*)"><code>([^<]*)<\/code><\/a>/g)].map((m) => [decode(m[1]!), decode(m[2]!)]));
    // The planted AWS key (examples/dirty/span-log-secret-in-trace.jsonl, line 1) comes first, then the orphan call (line 2 of span-log-orphan).
    expect(links[0]).toEqual([[ruleDocsUrl('secret-in-trace'), 'secret-in-trace'], [blob('examples/dirty/span-log-secret-in-trace.jsonl', 1), 'examples/dirty/span-log-secret-in-trace.jsonl:1']]);
    expect(links[1]).toEqual([[ruleDocsUrl('orphan-call'), 'orphan-call'], [blob('examples/dirty/span-log-orphan.jsonl', 2), 'examples/dirty/span-log-orphan.jsonl:2']]);
    expect(items.slice(0, 5).map((item) => item.slice(0, 2))).toEqual(['🔴', '🔴', '🟠', '🟠', '🟠']);
    for (const pair of links) {
      expect(pair.length).toBe(2);
      const [[docs, rule], [file, place]] = pair as [[string, string], [string, string]];
      expect(docs).toBe(ruleDocsUrl(rule));
      const [path, line] = place.split(':') as [string, string];
      expect(HEAD_ONLY).toContain(path);
      expect(file).toBe(blob(path, Number(line)));
      // The line linked is the line of the trace the finding is about: a record of that file.
      expect(readFileSync(path, 'utf8').split('\n')[Number(line) - 1]).toMatch(/^\{/);
    }
    expect(items[5]).toContain(`and ${added.length - 5} more in the <a href="https://github.com/octo-org/agent-app/actions/runs/102">job summary</a>`);
  });

  it('has a compact rule table: rule, severity, count, new, fixed; no prose column; secret first among errors', () => {
    const table = /<table>[\s\S]*?<\/table>/.exec(html)![0];
    const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1]!));
    expect(rows[0]).toEqual(['Rule', 'Severity', 'Count', 'New', 'Fixed']);
    expect(rows.length - 1).toBe(new Set([...run.head.findings, ...run.base.findings.filter((f) => BASE_ONLY.includes(f.file))].map((f) => f.ruleId)).size);
    for (const row of rows.slice(1)) {
      expect(row.length).toBe(5);
      // No prose: every cell is a linked rule id, a severity, or a number.
      expect(row[0]).toMatch(/^<a href="[^"]+"><code>[a-z-]+<\/code><\/a>$/);
      expect(row[1]).toMatch(/^(🔴 error|🟠 warning|🔵 note)$/);
      for (const cell of row.slice(2)) expect(cell).toMatch(/^[+−]?\d+$/);
    }
    expect(rows[1]![0]).toContain('secret-in-trace');
    const counts = new Map<string, number>();
    for (const f of run.head.findings) counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
    for (const row of rows.slice(1)) expect(Number(row[2])).toBe(counts.get(/<code>([a-z-]+)<\/code>/.exec(row[0]!)![1]!) ?? 0);
  });

  it('keeps the guidance, the run and seal, the catalog comparison and the timelines collapsed below the table', () => {
    const afterTable = html.slice(html.indexOf('</table>'));
    const summaries = [...afterTable.matchAll(/<summary>([\s\S]*?)<\/summary>/g)].map((m) => m[1]!);
    expect(summaries[0]).toMatch(/^Likely cause and next action \(\d+ of \d+ rule\(s\)/);
    expect(summaries).toContain('Run, seal and metrics');
    expect(summaries).toContain('Tool catalogs and counts against the base branch');
    expect(summaries).toContain('Timelines of runs with time-shaped findings');
    expect(html.indexOf('Seal digest')).toBeGreaterThan(html.indexOf('</table>'));
    expect(html.indexOf('<details>')).toBeGreaterThan(html.indexOf('</table>'));
  });
});

// Debian's Chromium draws the comment with GitHub's markdown metrics (scripts/comment-screenshot.mjs).
describe.runIf(existsSync('/usr/bin/chromium'))('the realistic comment on screen', () => {
  it('is about one screen tall collapsed: at most 1,200 px at 1,000 px wide', () => {
    const shot = join(tempDir('ata-shot-'), 'comment.png');
    const out = execFileSync(process.execPath, ['scripts/comment-screenshot.mjs', GOLDEN, shot], { encoding: 'utf8', timeout: 100_000 });
    const height = Number(/(\d+) px tall/.exec(out)![1]);
    expect(height).toBeGreaterThan(600);
    expect(height).toBeLessThanOrEqual(1200);
    expect(readFileSync(shot).subarray(1, 4).toString('latin1')).toBe('PNG');
  }, 120_000);
});
