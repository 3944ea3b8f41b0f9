import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { headLines, type Links } from '../../src/action/report-lines.js';
import type { Report } from '../../src/report/schema.js';
import { jsonl, reportOfFiles } from '../helpers.js';
import { CMARK_GFM, describeWith } from '../system-tools.js';

// Tool names from a catalog reach the comment's head lines: they must stay inert.
const HOSTILE = ['@octocat', 'fixes #1', 'a|b', '`tick`', '<img src=x onerror=alert(1)>', '![p](https://evil.example/p.png)', '[c](https://evil.example/)', 'https://evil.example/auto'];
const LINKS: Links = { runUrl: 'https://github.com/o/r/actions/runs/1', artifactUrl: '', artifactName: 'agent-trace-audit', sealDigest: `sha256:${'ab'.repeat(32)}`, shard: '' };

async function reportWith(names: string[], extra: unknown[] = []): Promise<Report> {
  const catalog = { type: 'catalog', run_id: 'r', catalog_names: names };
  return reportOfFiles({ 't.jsonl': jsonl(catalog, ...extra) });
}

function render(markdown: string): string {
  return execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8' });
}

describeWith(CMARK_GFM, 'headLines', () => {
  it('lists tools added and removed against the base as inert code, at most 10 per list', async () => {
    const many = Array.from({ length: 12 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    const base = await reportWith(['keep', 'gone']);
    const head = await reportWith(['keep', ...HOSTILE, ...many]);
    const { lines, diff } = headLines(head, LINKS, { found: true, report: base, reports: [{ report: base, source: 'run 7 on main', runId: 7, time: null }], source: 'run 7 on main' });
    expect(diff?.changed).toBe(true);
    expect(lines.slice(0, 2)).toEqual(['Details: [workflow run](https://github.com/o/r/actions/runs/1).', `Seal digest: \`sha256:${'ab'.repeat(32)}\``]);
    const added = lines.find((l) => l.startsWith('- tools added'))!;
    expect(added).toMatch(/^- tools added \(20\): .* and 10 more$/);
    expect(lines).toContain('- tools removed (1): `gone`');
    const html = render(lines.join('\n'));
    const prose = html.replace(/<code>[\s\S]*?<\/code>/g, '');
    expect(prose).not.toMatch(/@octocat|#1|<img|evil\.example|onerror/);
    expect(html).toContain('<code>@octocat</code>');
    expect(html).toContain('<code>&lt;img src=x onerror=alert(1)&gt;</code>');
    // Our own run link is the only link.
    expect(html.match(/<a /g)).toEqual(['<a ']);
  });

  it('shows the unmapped-error share and the recovery distribution, and says "no baseline" plainly', async () => {
    const call = (id: string) => ({ type: 'tool_call', run_id: 'r', tool_call_id: id, name: 'pytest', arguments: { id } });
    const failed = (id: string) => ({ type: 'tool_result', run_id: 'r', tool_call_id: id, name: 'pytest', error: { code: 'internal_error' } });
    const passed = (id: string) => ({ type: 'tool_result', run_id: 'r', tool_call_id: id, name: 'pytest', output: 'ok' });
    const head = await reportWith(['pytest'], [call('a'), failed('a'), call('b'), { ...failed('b'), error: { code: 'quota_exceeded' } }, call('c'), passed('c')]);
    const { lines, diff } = headLines(head, { ...LINKS, sealDigest: '' }, { found: false, reason: 'the baseline artifact of run 9 has expired' });
    expect(diff).toBeUndefined();
    expect(lines).toEqual([
      'Details: [workflow run](https://github.com/o/r/actions/runs/1).',
      '',
      'Unmapped error share: **50%** of 2 failed result(s) carry a catch-all code (0 carry no code).',
      'Recovery attempts after an error (slow-recovery): median 2, p90 2, max 2 over 1 recovered episode(s).',
      '',
      '**Base branch:** no baseline (the baseline artifact of run 9 has expired).',
    ]);
    // The same report as its own base: nothing changed.
    expect(headLines(head, LINKS, { found: true, report: head, reports: [{ report: head, source: 'x', runId: null, time: null }], source: 'x' }).lines.slice(-2)).toEqual(['**Base branch** (x):', 'no change in tool catalogs or finding counts.']);
  });
});
