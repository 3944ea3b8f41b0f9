import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { countSuite, suiteTrace, type SuiteRun } from '../../report/suite-runs.js';
import type { ActionRun } from '../run-action.js';
import { useActionHarness } from '../support/action-harness.js';
import { runOnMain } from '../support/base-runs.js';
import { CHROMIUM, CMARK_GFM, itWith } from '../../system-tools.js';

// The bundled Action (dist/index.js) against the loopback GitHub, with `baseline-runs: 5`: the
// last five runs of the workflow on main each uploaded its report artifact; the `search`
// scenario stormed in two of them (runs 302 and 304): one retry-storm warning and three
// redundant-call notes (its repeats). Pull request 42's run storms too: it passes `gate: new`
// at `fail-on: warning`, and its outputs and comment call the four findings flaky.
// A run that also brings a brand-new orphan fails on it. An older run (300, with an orphan)
// is past the five and not compared with.
const harness = useActionHarness();
const STORMS = [false, true, false, true, false];
const INPUTS = { traces: 'traces/**', 'fail-on': 'warning', gate: 'new', 'baseline-runs': '5' };
let workspace = '';
const runs: Record<'flaky' | 'orphan', ActionRun> = {} as never;
const counted: Array<{ storms: number; orphans: number }> = [];

function writeSuite(run: SuiteRun): void {
  const text = suiteTrace(run);
  writeFileSync(join(workspace, 'traces/suite.jsonl'), text);
  counted.push(countSuite(text));
}

const botComment = () => harness.gh.comments.get(42)!.filter((c) => c.user.login === 'github-actions[bot]').at(-1)!.body;

beforeAll(async () => {
  workspace = tempDir('ata-flaky-dist-');
  mkdirSync(join(workspace, 'traces'));
  writeSuite({ orphan: true });
  await runOnMain(harness, 300, workspace, { traces: 'traces/**' });
  for (const [i, storm] of STORMS.entries()) {
    writeSuite({ storm });
    await runOnMain(harness, 301 + i, workspace, { traces: 'traces/**' });
  }
  harness.gh.comments.set(42, []);
  writeSuite({ storm: true });
  runs.flaky = await harness.run(401, INPUTS, { workspace });
  const flakyComment = botComment();
  writeSuite({ storm: true, orphan: true });
  runs.orphan = await harness.run(402, INPUTS, { workspace });
  comments.push(flakyComment, botComment());
}, 300_000);
const comments: string[] = [];

it('python3 counts the plan: an orphan in the oldest run, storms in two of the last five, the head storms, then also orphans', () => {
  expect(counted).toEqual([
    { storms: 0, repeats: 0, orphans: 1 },
    ...STORMS.map((storm) => ({ storms: storm ? 1 : 0, repeats: storm ? 3 : 0, orphans: 0 })),
    { storms: 1, repeats: 3, orphans: 0 },
    { storms: 1, repeats: 3, orphans: 1 },
  ]);
});

it('the head with the storm passes gate new at fail-on warning; the outputs count it flaky, not new', () => {
  const { flaky } = runs;
  expect(flaky.code, flaky.stdout).toBe(0);
  expect(flaky.outputs).toMatchObject({ conclusion: 'success', verdict: '✅ no new findings (4 flaky findings)', 'new-findings': '0', 'flaky-findings': '4', 'fixed-findings': '0', warnings: '1', notes: '3' });
  // The report artifact's JSON: the verdict, the storm's state, the five base runs used, newest first.
  const report = JSON.parse(readFileSync(flaky.outputs['report-json']!, 'utf8')) as { verdict: { headline: string }; comparison: { baselines: Array<{ runId: number; source: string }> }; findings: Array<{ ruleId: string; baselineState: string; baselineSeen: unknown }> };
  expect(report.verdict.headline).toBe(flaky.outputs['verdict']);
  expect(report.comparison.baselines.map((b) => [b.runId, b.source])).toEqual([305, 304, 303, 302, 301].map((id) => [id, `run ${id} on main`]));
  expect(report.findings.map((f) => [f.ruleId, f.baselineState, f.baselineSeen])).toEqual([
    ['retry-storm', 'flaky', { runs: 2, of: 5 }],
    ...Array(3).fill(['redundant-call', 'flaky', { runs: 2, of: 5 }]),
  ]);
});

it('the comment says flaky: seen in 2 of the last 5 runs on main, listed collapsed', () => {
  const [comment] = comments;
  expect(comment!.split('\n')[0]).toBe('## agent-trace-audit: ✅ no new findings (4 flaky findings)');
  expect(comment).toContain('**New in this PR:** none.');
  expect(comment).toContain('<details><summary>Flaky: 4 findings seen in some but not all of the last 5 runs on main (never failing the gate)</summary>');
  // The trace is in the checkout's index (support/run-action.ts): its place links to the head commit's blob.
  expect(comment).toMatch(/- 🟠 \[`retry-storm`\]\[retry-storm\] at \[`traces\/suite\.jsonl:22`\]\(https:\/\/github\.com\/octo-org\/agent-app\/blob\/[0-9a-f]{40}\/traces\/suite\.jsonl#L22\): `[^`]+` \(seen in 2 of the last 5 runs on main\)/);
  expect(runs.flaky.summary).toContain('(seen in 2 of the last 5 runs on main)');
});

it('a head with a brand-new orphan fails on it: the orphan of run 300 is past the five runs compared', () => {
  const { orphan } = runs;
  expect(orphan.code, orphan.stdout).toBe(1);
  expect(orphan.outputs).toMatchObject({ conclusion: 'failure', verdict: '❌ 1 new error (1 error, 1 warning in all; 4 flaky findings)', 'new-findings': '1', 'new-errors': '1', 'flaky-findings': '4', 'fixed-findings': '0' });
  expect(comments[1]).toMatch(/\*\*New in this PR:\*\* 1 finding\(s\):\n\n- 🔴 \[`orphan-call`\]/);
});

const gfm = (markdown: string) => execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8' });

itWith(CMARK_GFM, 'renders with cmark-gfm: the flaky findings a collapsed list under one line, in the comment and the job summary', () => {
  for (const markdown of [comments[0]!, runs.flaky.summary]) {
    const html = gfm(markdown);
    const flaky = /<details><summary>Flaky: ([^<]*)<\/summary>\s*<ul>([\s\S]*?)<\/ul>\s*<\/details>/.exec(html)!;
    expect(flaky[1]).toBe('4 findings seen in some but not all of the last 5 runs on main (never failing the gate)');
    const items = [...flaky[2]!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(items.length).toBe(4);
    for (const item of items.slice(1)) expect(item).toMatch(/<code>redundant-call<\/code><\/a> at <a href="[^"]+"><code>traces\/suite\.jsonl:(24|26|28)<\/code><\/a>: <code>[^<]+<\/code> \(seen in 2 of the last 5 runs on main\)$/);
    expect(items[0]).toMatch(/<code>retry-storm<\/code><\/a> at <a href="[^"]+#L22"><code>traces\/suite\.jsonl:22<\/code><\/a>: <code>tool 'search_docs' was called 4 times with identical arguments in this run \(lines 22, 24, 26, 28\)<\/code> \(seen in 2 of the last 5 runs on main\)$/);
  }
});

// FLAKY_SCREENSHOT=<folder> keeps the pictures (comment.png, summary.png) of Debian's Chromium (scripts/comment-screenshot.mjs).
itWith(CHROMIUM, 'the comment with a flaky finding stays short: one screen at 1,000 px wide', () => {
  const folder = process.env['FLAKY_SCREENSHOT'] ?? tempDir('ata-flaky-shot-');
  const heights = (['comment', 'summary'] as const).map((name, i) => {
    writeFileSync(join(folder, `${name}.md`), i === 0 ? comments[0]! : runs.flaky.summary);
    const out = execFileSync(process.execPath, ['scripts/comment-screenshot.mjs', join(folder, `${name}.md`), join(folder, `${name}.png`)], { encoding: 'utf8', timeout: 100_000 });
    return Number(/(\d+) px tall/.exec(out)![1]);
  });
  expect(heights[0]).toBeGreaterThan(150);
  expect(heights[0]).toBeLessThanOrEqual(1400);
}, 240_000);
