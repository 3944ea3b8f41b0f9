import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ruleDocsUrl } from '../../../src/report/render/rule-docs.js';
import { tempDir } from '../../helpers.js';
import { describeCorpus } from '../../public-corpus.js';
import { CORPUS } from '../../report/pr-run.js';
import { CHROMIUM, CMARK_GFM, itWith } from '../../system-tools.js';
import type { ActionRun } from '../run-action.js';
import { PR_EVENT, pushToMain, useActionHarness } from '../support/action-harness.js';
import { listOnMain, runOnMain } from '../support/base-runs.js';
import { expected, FILES, git, pullRequestWorkspace, type Expected, type SuiteWrite } from '../support/pr-workspace.js';

// The realistic pull request run of issues 39 and 43, end to end: the bundled Action
// (dist/index.js) as the runner runs it, in a real git checkout, against the loopback GitHub.
// Five runs on main (97 to 101) each run the agent suite afresh, as a live suite does (fresh
// run and call ids, a timestamped file name, the scenarios in another order: pr-workspace.ts),
// and upload their report; the pull request is compared with the five (baseline-runs: 5, the
// default) after running the suite afresh again. What is new and fixed is counted from the
// planted defects, never from the tool: fixed 48 (27 errors), new 19 (14 errors): 10 in a
// committed file, 6 in the native trace the suite writes, 3 in a Claude Code session it writes.
// A second suite (`name: nightly`, `comment-mode: changes`) runs in the same workflow: its report
// in run 101 is not the main suite's baseline, and it keeps its own comment and check run.
const REPO_URL = 'https://github.com/octo-org/agent-app';
const TRACES = 'traces/**\nout/**';
const NIGHTLY = { name: 'nightly', 'comment-mode': 'changes', traces: 'out-nightly/**' };
const BASE_RUNS = [97, 98, 99, 100, 101];
/** Read at the head: the corpus, existing.jsonl, new-committed.jsonl, the suite's native file and its two sessions. */
const READ = CORPUS.length + 5;
const errorsOf = (list: readonly Expected[]) => list.filter((f) => f.severity === 'error').length;

const harness = useActionHarness();
const runs: Record<'base' | 'first' | 'nightly' | 'nightlyAgain' | 'second', ActionRun> = {} as never;
let ws: ReturnType<typeof pullRequestWorkspace>;
/** What the suite wrote in each base run, before the first and before the second head run. */
const baseWrites: SuiteWrite[] = [];
let firstWrite: SuiteWrite;
let secondWrite: SuiteWrite;
let fixed: Expected[] = [];
let added: Expected[] = [];
let head = '';
let firstComment = '';
let nightlyWrites: string[] = [];
/** The check runs on the head commit after the main and the nightly suite ran: [name, conclusion]. */
let checksAfterNames: string[][] = [];

function prEvent(headSha: string, baseSha: string) {
  const pr = PR_EVENT['pull_request'] as { head: object; base: object };
  return { ...PR_EVENT, pull_request: { ...pr, head: { ...pr.head, sha: headSha }, base: { ...pr.base, sha: baseSha } } };
}
const comments = () => harness.gh.comments.get(42)!.filter((c) => c.user.login === 'github-actions[bot]');
const unnamedComment = () => comments().find((c) => c.body.includes('<!-- agent-trace-audit:comment -->'))!.body;
const report = (run: ActionRun) => JSON.parse(readFileSync(run.outputs['report-json']!, 'utf8')) as { findings: Array<{ ruleId: string; file: string; line: number; message: string }> };

/** The line of the record a finding points at (its call id as written: `id`), native or session: the result for an orphan result or a traceback, else the call. */
function lineOf(f: Expected, text: string, id = f.callId): number {
  const result = ['unmatched-result', 'stack-trace-in-result', 'internal-detail-leak', 'unstructured-error'].includes(f.rule);
  const native = (l: string) => l.includes(`"type":"${result ? 'tool_result' : 'tool_call'}"`) && l.includes(`"tool_call_id":"${id}"`);
  const session = (l: string) => l.includes(result ? `"type":"tool_result","tool_use_id":"${id}"` : `"type":"tool_use","id":"${id}"`);
  return text.split('\n').findIndex((l) => native(l) || session(l)) + 1;
}

const UNREAD_LEAD = `⚠️ 2 of ${READ} files not read (2 no records) · `;

describeCorpus('the realistic pull request run of the bundled Action', [...CORPUS], () => {
  beforeAll(async () => {
    const { gh } = harness;
    ws = pullRequestWorkspace();
    const push = { workspace: ws.root, ...pushToMain(ws.baseSha) };
    // Five workflow runs on main, each running the suite afresh and uploading its report; the last also runs the nightly suite.
    for (const runId of BASE_RUNS) {
      baseWrites.push(ws.runSuite());
      runs.base = await runOnMain(harness, runId, ws.root, { traces: TRACES }, ws.baseSha);
    }
    await harness.run(101, { ...NIGHTLY, comment: 'false', 'check-run': 'off' }, push);
    gh.comments.set(42, []);
    head = ws.toHead();
    const pr = { workspace: ws.root, event: prEvent(head, ws.baseSha) };
    firstWrite = ws.runSuite();
    const lastBase = baseWrites.at(-1)!;
    fixed = [...expected('fixedA', lastBase.file), ...expected('fixedB', lastBase.file), ...expected('review', lastBase.sessions.review.file)];
    added = [...expected('newCommitted'), ...expected('newWritten', firstWrite.file), ...expected('triage', firstWrite.sessions.triage.file)];
    runs.first = await harness.run(201, { traces: TRACES, gate: 'new' }, pr);
    firstComment = unnamedComment();
    runs.nightly = await harness.run(202, NIGHTLY, pr);
    const before = gh.requests.length;
    // The nightly job again, its suite run afresh: the same verdict, nothing edited.
    ws.runSuite();
    runs.nightlyAgain = await harness.run(203, NIGHTLY, pr);
    nightlyWrites = gh.requests.slice(before).filter((r) => r.method !== 'GET' && r.path.includes('/comments')).map((r) => `${r.method} ${r.path}`);
    checksAfterNames = gh.checks.runs.filter((r) => r.head_sha === head).map((r) => [r.name, r.conclusion ?? '']);
    // The base branch's latest run now has the first run's report; the four before it are 101, 100, 99 and 98.
    listOnMain(harness, 201, head);
    // The same head run again, the suite run afresh (new ids, file names, order), nothing changed.
    secondWrite = ws.runSuite();
    runs.second = await harness.run(204, { traces: TRACES, gate: 'new' }, pr);
  }, 900_000);

  it('the plan, read back from the files by python3: 48 findings fixed, 19 new; every run wrote its suite afresh', () => {
    const python = (script: string, texts: string[]) => Number(execFileSync('python3', ['-c', script], { input: texts.join('\0'), encoding: 'utf8' }));
    // Native, per run (a file holds several): calls without a result, results without a call, calls to a
    // tool off the catalog, calls with an AWS key id, error results with a traceback (two findings each).
    const native = `import json, sys, collections
n = 0
for text in sys.stdin.read().split('\\0'):
    runs = collections.defaultdict(list)
    for l in text.splitlines():
        if l.strip():
            r = json.loads(l)
            runs[r['run_id']].append(r)
    for recs in runs.values():
        calls = {r['tool_call_id']: r for r in recs if r['type'] == 'tool_call'}
        results = {r['tool_call_id']: r for r in recs if r['type'] == 'tool_result'}
        catalog = set(next(r for r in recs if r['type'] == 'catalog')['catalog_names'])
        n += len(calls.keys() - results.keys()) + len(results.keys() - calls.keys())
        n += sum(1 for r in calls.values() if r['name'] not in catalog)
        n += sum(1 for r in calls.values() if 'AKIA' in json.dumps(r['arguments']))
        n += sum(2 for r in results.values() if 'Traceback' in json.dumps(r.get('error')))
print(n)`;
    // A session: a tool use never answered (two findings when another tool use follows it), a result
    // of no tool use, a tool use with an AWS key id, an error result with a traceback (three findings).
    const sessions = `import json, sys
n = 0
for text in sys.stdin.read().split('\\0'):
    blocks = [b for l in text.splitlines() if l.strip() for b in (json.loads(l)['message']['content'] if isinstance(json.loads(l)['message']['content'], list) else [])]
    uses = [b for b in blocks if b['type'] == 'tool_use']
    answered = {b['tool_use_id'] for b in blocks if b['type'] == 'tool_result'}
    for i, u in enumerate(uses):
        if u['id'] not in answered:
            n += 2 if i + 1 < len(uses) else 1
    n += len(answered - {u['id'] for u in uses})
    n += sum(1 for u in uses if 'AKIA' in json.dumps(u['input']))
    n += sum(3 for b in blocks if b['type'] == 'tool_result' and b.get('is_error') and 'Traceback' in b['content'])
print(n)`;
    const count = (w: SuiteWrite, ...committed: string[]) => python(native, [w.text, ...committed]) + python(sessions, [w.sessions.review.text, w.sessions.triage.text]);
    expect(baseWrites.map((w) => count(w))).toEqual(BASE_RUNS.map(() => fixed.length));
    const newCommitted = git(ws.root, 'show', `${head}:${FILES.newCommitted}`);
    expect([firstWrite, secondWrite].map((w) => count(w, newCommitted))).toEqual([added.length, added.length]);
    expect([fixed.length, errorsOf(fixed), added.length, errorsOf(added)]).toEqual([48, 27, 19, 14]);
    // Afresh each time, as a live suite: no file name, run, session or call id written twice, no two runs in a row in one order.
    const writes = [...baseWrites, firstWrite, secondWrite];
    const names = writes.flatMap((w) => [w.file, w.sessions.review.file, w.sessions.triage.file]);
    expect(new Set(names).size).toBe(names.length);
    const idsOf = (w: SuiteWrite) => [w.text, w.sessions.review.text, w.sessions.triage.text].flatMap((text) => [...new Set(text.match(/"(?:run_id|sessionId|tool_call_id|tool_use_id|id)":"[^"]+"/g)!.map((m) => m.split('":"')[1]))]);
    const perWrite = writes.map((w) => new Set(idsOf(w)));
    expect(new Set(perWrite.flatMap((ids) => [...ids])).size).toBe(perWrite.reduce((n, ids) => n + ids.size, 0));
    writes.slice(1).forEach((w, i) => expect(w.order).not.toEqual(writes[i]!.order));
  });

  it('gate new: exit 1 on the 14 new errors; the outputs count 19 new and 48 fixed', () => {
    const { base, first } = runs;
    expect(first.stdout).toContain(`found ${READ} trace file(s)`);
    const errors = Number(base.outputs['errors']) - errorsOf(fixed) + errorsOf(added);
    // fixed-findings is 48, not 51: the nightly suite's report in run 101 is not compared with.
    expect(first.code, first.stdout).toBe(1);
    expect(first.outputs).toMatchObject({
      conclusion: 'failure',
      // The two ADK eval sets of the corpus are read as google-adk and give no record: not read, and said first.
      verdict: `${UNREAD_LEAD}❌ ${errorsOf(added)} new errors (${errors} errors in all)`,
      'unread-files': '2',
      'new-findings': String(added.length),
      'new-errors': String(errorsOf(added)),
      'fixed-findings': String(fixed.length),
      'flaky-findings': '0',
      errors: String(errors),
      findings: String(Number(base.outputs['findings']) - fixed.length + added.length),
    });
    expect(firstComment.split('\n')[0]).toBe(`## agent-trace-audit: ${first.outputs['verdict']}`);
  });

  it("the comment lists each new finding whole, linked only when its file is committed at the head", () => {
    const items = firstComment.split('\n').filter((l) => /^- [🔴🟠🔵] \[`/u.test(l));
    const findings = report(runs.first).findings;
    const { file: written, sessions: { triage } } = firstWrite;
    const texts = new Map(added.map((f) => [f.file, f.file === written ? firstWrite.text : f.file === triage.file ? triage.text : git(ws.root, 'show', `${head}:${f.file}`)]));
    const idOf = (f: Expected) => (f.file === written ? firstWrite.ids.get('agent-run')!.get(f.callId)! : f.file === triage.file ? triage.ids.get(f.callId)! : f.callId);
    const seen = items.map((item) => {
      const m = /^- \S+ \[`([a-z-]+)`\]\[\1\] at (?:\[`([^`]+)`\]\(([^)]+)\)|`([^`]+)`): `([^`]+)`$/u.exec(item);
      expect(m, item).not.toBeNull();
      const [, rule, linkedAt, url, plainAt, message] = m!;
      const [file, line] = (linkedAt ?? plainAt)!.split(':') as [string, string];
      // Linked exactly when the file is committed at the head, to the line in the blob there.
      expect([item, url]).toEqual([item, file.startsWith('out/') ? undefined : `${REPO_URL}/blob/${head}/${file}#L${line}`]);
      // The whole message, as the report has it.
      expect(message!.endsWith('…')).toBe(false);
      expect(findings.filter((f) => f.ruleId === rule && f.file === file && f.line === Number(line)).map((f) => f.message)).toContain(message);
      return `${rule} ${file}:${line}`;
    });
    // The same findings the plan gives, at the lines of the records they point at.
    expect(seen.sort()).toEqual(added.map((f) => `${f.rule} ${f.file}:${lineOf(f, texts.get(f.file)!, idOf(f))}`).sort());
    expect(firstComment).toContain(`tool 'deploy_preview' is not in the run's catalog ('fetch_page', 'list_dir', 'read_file', 'run_tests', 'search_docs', 'write_file'): no catalog hash is recorded to tell a wrong catalog from an invented name\``);
    // Every link into the repository resolves: the path exists at the commit it names.
    for (const [, sha, path] of firstComment.matchAll(/https:\/\/github\.com\/octo-org\/agent-app\/blob\/([0-9a-f]{40})\/([^)#\s]+)/g)) {
      expect(sha).toBe(head);
      expect(() => git(ws.root, 'cat-file', '-e', `${sha}:${decodeURIComponent(path!)}`), path).not.toThrow();
    }
    expect(firstComment).not.toMatch(/blob\/[0-9a-f]{40}\/out\//);
  });

  it('the fixed line and the rule table: counts from the plan, no 0 | 0 row', () => {
    const perRule = (list: readonly Expected[]) => list.reduce((m, f) => m.set(f.rule, (m.get(f.rule) ?? 0) + 1), new Map<string, number>());
    const fixedLine = firstComment.split('\n').find((l) => l.startsWith('**Fixed in this PR:**'))!;
    expect(fixedLine.startsWith(`**Fixed in this PR:** ${fixed.length} finding(s): `)).toBe(true);
    expect(new Map([...fixedLine.matchAll(/`([a-z-]+)` ×(\d+)/g)].map((m) => [m[1]!, Number(m[2])]))).toEqual(perRule(fixed));
    const rows = firstComment.split('\n').filter((l) => /^\| \[`/.test(l)).map((l) => l.split('|').map((c) => c.trim()));
    const newOf = perRule(added);
    const fixedOf = perRule(fixed);
    expect(rows.map((r) => /`([a-z-]+)`/.exec(r[1]!)![1]).sort()).toEqual([...new Set([...newOf.keys(), ...fixedOf.keys()])].sort());
    for (const r of rows) {
      const rule = /`([a-z-]+)`/.exec(r[1]!)![1]!;
      expect([rule, r[4], r[5]]).toEqual([rule, newOf.has(rule) ? `+${newOf.get(rule)}` : '0', fixedOf.has(rule) ? `−${fixedOf.get(rule)}` : '0']);
    }
    for (const c of comments()) expect(c.body).not.toMatch(/\| 0 \| 0 \|/);
  });

  it("run again with the first run's report as the newest of five base runs: exit 0, no new findings; the first run's new ones are flaky, none fixed", () => {
    const { first, second } = runs;
    expect(second.code, second.stdout).toBe(0);
    // The findings pass, two files were not read: neutral. Run 201 alone of the five had the 19 findings the first run added: seen in 1 of 5. The 48 it fixed are in the four others only: not fixed.
    const verdict = `${UNREAD_LEAD}✅ no new findings (${added.length} flaky findings; ${Number(first.outputs['errors']) - errorsOf(added)} existing errors)`;
    expect(second.outputs).toMatchObject({ conclusion: 'neutral', verdict, 'new-findings': '0', 'new-errors': '0', 'flaky-findings': String(added.length), 'fixed-findings': '0' });
    expect(unnamedComment().split('\n')[0]).toBe(`## agent-trace-audit: ${verdict}`);
    expect(unnamedComment()).toContain(`<details><summary>Flaky: ${added.length} findings seen in some but not all of the last 5 runs on main (never failing the gate)</summary>`);
    expect(unnamedComment()).toContain('(seen in 1 of the last 5 runs on main)');
    expect(second.summary).toContain(second.outputs['verdict']!);
  });

  it('two names on one pull request: two comments and two check runs; comment-mode changes edits nothing the second time', () => {
    expect(comments().map((c) => c.body.match(/<!-- agent-trace-audit:comment[^>]*-->/)![0])).toEqual(['<!-- agent-trace-audit:comment -->', '<!-- agent-trace-audit:comment name=nightly -->']);
    expect(checksAfterNames).toEqual([
      ['agent-trace-audit', 'failure'],
      ['agent-trace-audit (nightly)', 'failure'],
    ]);
    // The second run of the main suite on that commit: other annotations (none is new now), so the first check run is marked superseded.
    const checks = harness.gh.checks.runs.filter((r) => r.head_sha === head);
    expect(checks.map((r) => [r.name, r.conclusion, r.output.title === 'Superseded'])).toEqual([
      ['agent-trace-audit', 'neutral', true],
      ['agent-trace-audit (nightly)', 'failure', false],
      ['agent-trace-audit', 'neutral', false],
    ]);
    const nightlyNew = expected('nightlyHead').filter((f) => !expected('nightly').some((b) => b.callId === f.callId));
    expect(runs.nightly.outputs).toMatchObject({ verdict: `❌ ${nightlyNew.length} new error (${errorsOf(expected('nightlyHead'))} errors in all)`, 'new-findings': String(nightlyNew.length), 'fixed-findings': '0' });
    expect([runs.nightlyAgain.code, runs.nightlyAgain.outputs['verdict']]).toEqual([1, runs.nightly.outputs['verdict']]);
    expect(nightlyWrites).toEqual([]);
    // Annotations only on committed files: never the trace the job wrote.
    const tracked = new Set(git(ws.root, 'ls-files').split('\n'));
    for (const check of [checks[0]!, checks[2]!]) {
      const annotated = check.annotations.map((a) => a.path);
      expect(annotated.length).toBeGreaterThan(0);
      expect(annotated.filter((p) => !tracked.has(p))).toEqual([]);
    }
    // What is not annotated is listed in the summary: the trace written during the run and the members of the .eval archive.
    const notAnnotated = checks[2]!.output.summary.split('**Not annotated**')[1]!.split('\n').filter((l) => l.startsWith('| ') && l.includes('` | `')).map((l) => l.split(' | ')[2]!.replace(/`/g, ''));
    // In the files the suite wrote: the findings of the plan, and a session's catalog-missing note (a session has no catalog).
    const { file: written, sessions } = secondWrite;
    const inFile = (file: string) => notAnnotated.filter((at) => at.startsWith(`${file}:`)).length;
    expect([written, sessions.triage.file, sessions.review.file].map(inFile)).toEqual([expected('newWritten').length, expected('triage').length + 1, 1]);
    expect(notAnnotated.filter((at) => !at.startsWith('out/') && !at.startsWith('traces/corpus/inspect/log_message_deduplication.eval/'))).toEqual([]);
    expect(checks[2]!.annotations.length + notAnnotated.length).toBe(Number(runs.second.outputs['findings']));
  });

  itWith(CMARK_GFM, 'renders with cmark-gfm: each new finding an item, its rule linked to its docs', () => {
    const html = execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: firstComment, encoding: 'utf8' });
    const list = /<strong>New in this PR:<\/strong>[\s\S]*?<ul>([\s\S]*?)<\/ul>/.exec(html)![1]!;
    const rules = [...list.matchAll(/<li>[^<]*<a href="([^"]*)"><code>([a-z-]+)<\/code><\/a>/g)];
    expect(rules.length).toBe(added.length);
    for (const [, href, rule] of rules) expect(href!.replace(/&amp;/g, '&')).toBe(ruleDocsUrl(rule!));
  });

  // Debian's Chromium draws the comment with GitHub's markdown metrics (scripts/comment-screenshot.mjs);
  // PR_RUN_SCREENSHOT=<file.png> keeps the picture.
  itWith(CHROMIUM, 'stays one screen tall (1,000 × 1,400 px) to the end of the new findings', () => {
    const folder = tempDir('ata-pr-shot-');
    writeFileSync(join(folder, 'comment.md'), firstComment);
    const shot = process.env['PR_RUN_SCREENSHOT'] ?? join(folder, 'comment.png');
    const out = execFileSync(process.execPath, ['scripts/comment-screenshot.mjs', join(folder, 'comment.md'), shot], { encoding: 'utf8', timeout: 100_000 });
    process.stdout.write(out);
    const newEnd = Number(/new findings end at (\d+) px/.exec(out)![1]);
    expect(newEnd).toBeGreaterThan(400);
    expect(newEnd).toBeLessThanOrEqual(1400);
  }, 120_000);
});
