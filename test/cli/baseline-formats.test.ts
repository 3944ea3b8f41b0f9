import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ruleDocsUrl } from '../../src/report/render/rule-docs.js';
import { runInProcess, type CliRun } from '../hostile/audit-cli.js';
import { tempDir } from '../helpers.js';
import { CMARK_GFM, itWith } from '../system-tools.js';
import { sarifValidator } from '../report/sarif-schema.js';

// `audit --format markdown` is the job summary's renderer (src/report/render/summary.ts): the verdict,
// the new findings each with its whole message and the fixed ones against --baseline (else the
// most urgent findings), the rule table, guidance per rule, every finding and the suppressed ones.
// `--format sarif` of the same run: suppressed findings as accepted suppressions, baselineState per result.
const GOLDEN = 'test/fixtures/golden/examples-baseline.md';
const SARIF_GOLDEN = 'test/fixtures/golden/examples-baseline.sarif';

const EXAMPLES = ['boundary-payload-mutation.jsonl', 'span-log-orphan.jsonl', 'span-log-secret-in-trace.jsonl', 'typed-events-unmatched.jsonl'];

function render(markdown: string): string {
  return execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8' });
}

const decode = (html: string) => html.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/**
 * New and fixed fingerprints (counted) by python3 from the two JSON reports, not the tool's own comparison:
 * new = head findings the base lacks; fixed = base findings the head has neither as a finding nor as a suppressed one.
 */
function pythonDelta(base: string, head: string): { added: string[]; fixed: string[] } {
  const script = [
    'import json, sys, collections',
    'b = json.load(open(sys.argv[1]))["findings"]; h = json.load(open(sys.argv[2]))["findings"]',
    's = json.load(open(sys.argv[2])).get("suppressed", {}).get("findings", [])',
    'cb = collections.Counter(f["fingerprint"] for f in b); ch = collections.Counter(f["fingerprint"] for f in h)',
    'cs = ch + collections.Counter(f["fingerprint"] for f in s)',
    'print(json.dumps({"added": sorted((ch - cb).elements()), "fixed": sorted((cb - cs).elements())}))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, base, head], { encoding: 'utf8' })) as { added: string[]; fixed: string[] };
}

describe('audit --format markdown with --baseline: the layout of the comment and the job summary', () => {
  let root: string;
  let head: CliRun;
  let plain: CliRun;
  let sarif: CliRun;
  beforeAll(async () => {
    root = tempDir();
    mkdirSync(join(root, 'examples/dirty'), { recursive: true });
    // The base branch: three of the examples, and a suite trace this head no longer has (its findings are fixed).
    for (const name of EXAMPLES.filter((n) => n !== 'span-log-secret-in-trace.jsonl')) copyFileSync(join('examples/dirty', name), join(root, 'examples/dirty', name));
    const old = [
      { run_id: 'old', kind: 'tool_call', call_id: 'o1', tool: 'fetch_page' },
      { run_id: 'old', kind: 'tool_call', call_id: 'o2', tool: 'fetch_page' },
    ];
    writeFileSync(join(root, 'examples/dirty/old-suite.jsonl'), old.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const base = await runInProcess(['audit', 'examples', '--format', 'json', '-o', 'base.json', '--fail-on', 'never', '--jobs', '1'], root);
    expect(base.code).toBe(0);
    // The head: the old suite gone, the secret example added; one rule accepted in the configuration.
    rmSync(join(root, 'examples/dirty/old-suite.jsonl'));
    copyFileSync('examples/dirty/span-log-secret-in-trace.jsonl', join(root, 'examples/dirty/span-log-secret-in-trace.jsonl'));
    writeFileSync(join(root, 'agent-trace-audit.yml'), 'suppress:\n  - rule: unused-tool\n    reason: the typed-events example offers tools it never calls on purpose\n');
    head = await runInProcess(['audit', 'examples', '--format', 'markdown', '--baseline', 'base.json', '--jobs', '1'], root);
    plain = await runInProcess(['audit', 'examples', '--format', 'markdown', '--jobs', '1'], root);
    sarif = await runInProcess(['audit', 'examples', '--format', 'sarif', '--baseline', 'base.json', '--jobs', '1'], root);
    expect((await runInProcess(['audit', 'examples', '--format', 'json', '-o', 'head.json', '--fail-on', 'never', '--jobs', '1'], root)).code).toBe(0);
  }, 120_000);

  it('matches its golden file; exit 1 on the new error (gate new), and the verdict says new against all', () => {
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, head.stdout);
    expect(head.stdout).toBe(readFileSync(GOLDEN, 'utf8'));
    expect(head.code).toBe(1);
    expect(head.stdout.split('\n')[0]).toBe('## agent-trace-audit: ❌ 1 new error (3 errors in all)');
    // No old six-column triage table, no links to files (no repository to link to).
    expect(head.stdout).not.toContain('| Likely cause | Next action |');
    expect(head.stdout).not.toMatch(/\]\((?!https:\/\/github\.com\/agent-trace-audit\/agent-trace-audit\/blob\/main\/docs\/rules\/)/);
  });

  itWith(CMARK_GFM, 'lists each new finding on its own line with its whole message, and counts the fixed ones, as python3 counts them from the two reports', () => {
    const html = render(head.stdout);
    const truth = pythonDelta(join(root, 'base.json'), join(root, 'head.json'));
    // head.json is judged as the markdown is (the configuration's suppress: applies): unused-tool is listed apart.
    const headReport = JSON.parse(readFileSync(join(root, 'head.json'), 'utf8')) as { findings: Array<{ ruleId: string; message: string; fingerprint: string }>; suppressed: { count: number } };
    expect(headReport.suppressed.count).toBe(2);
    const { added } = truth;
    // The secret example's two findings are new; the old suite's two orphans and its catalog-missing are fixed.
    expect(added.length).toBe(2);
    expect(truth.fixed.length).toBe(3);
    const list = /<strong>New against the baseline:<\/strong> (\d+) finding\(s\):[\s\S]*?<ul>([\s\S]*?)<\/ul>/.exec(html)!;
    expect(Number(list[1])).toBe(added.length);
    const items = [...list[2]!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(items.length).toBe(added.length);
    for (const item of items) {
      const [, href, rule] = /<a href="([^"]*)"><code>([a-z-]+)<\/code><\/a>/.exec(item)!;
      expect(decode(href!)).toBe(ruleDocsUrl(rule!));
      const message = decode([...item.matchAll(/<code>([^<]*)<\/code>/g)].at(-1)![1]!);
      expect(headReport.findings.some((f) => added.includes(f.fingerprint) && f.ruleId === rule && f.message === message)).toBe(true);
    }
    expect(html).toContain(`<strong>Fixed against the baseline:</strong> ${truth.fixed.length} finding(s): <code>orphan-call</code> ×2, <code>catalog-missing</code> ×1.`);
    // The rule table: rule, severity, count, new, first location; only rules with a count; the suppressed rule in its own list.
    const table = /<table>([\s\S]*?)<\/table>/.exec(html)![1]!;
    expect([...table.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(['Rule', 'Severity', 'Count', 'New', 'First at']);
    expect([...table.matchAll(/<tr>\s*<td><code>([a-z-]+)<\/code><\/td>/g)].map((m) => m[1])).toEqual(['orphan-call', 'secret-in-trace', 'unmatched-result', 'continued-while-outstanding', 'payload-mutation', 'catalog-missing']);
    expect(html).toContain('<summary>Suppressed: 2 findings (accepted in the configuration');
  });

  it('--format sarif of the same run: valid SARIF 2.1.0 (golden); the suppressed findings are accepted suppressions with the reason, the rest new or unchanged as python3 counts', () => {
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(SARIF_GOLDEN, sarif.stdout);
    expect(sarif.stdout).toBe(readFileSync(SARIF_GOLDEN, 'utf8'));
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout);
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    type Result = { ruleId: string; baselineState?: string; suppressions?: Array<{ kind: string; status: string; justification: string }>; partialFingerprints: Record<string, string> };
    const results = log.runs[0].results as Result[];
    const truth = pythonDelta(join(root, 'base.json'), join(root, 'head.json'));
    const print = (r: Result) => Object.values(r.partialFingerprints)[0]!;
    expect(results.filter((r) => r.baselineState === 'new').map(print).sort()).toEqual([...truth.added].sort());
    expect(results.filter((r) => r.baselineState === 'unchanged').length).toBe(6);
    const quiet = results.filter((r) => r.suppressions);
    expect(quiet.map((r) => [r.ruleId, r.baselineState ?? null, r.suppressions])).toEqual(
      Array(2).fill(['unused-tool', null, [{ kind: 'external', status: 'accepted', justification: 'the typed-events example offers tools it never calls on purpose' }]]),
    );
    // Every finding of the head (judged and suppressed) is a result once; the fixed ones are not results.
    const head = JSON.parse(readFileSync(join(root, 'head.json'), 'utf8')) as { findings: Array<{ fingerprint: string }>; suppressed: { findings: Array<{ fingerprint: string }> } };
    expect(results.map(print).sort()).toEqual([...head.findings, ...head.suppressed.findings].map((f) => f.fingerprint).sort());
    for (const fixed of truth.fixed) expect(results.map(print)).not.toContain(fixed);
  });

  it('without --baseline: the verdict, why nothing was compared, the most urgent findings; exit by all findings', () => {
    expect(plain.code).toBe(1);
    const lines = plain.stdout.split('\n');
    expect(lines[0]).toBe('## agent-trace-audit: ❌ 3 errors');
    expect(lines[2]).toBe('**Failed** (fail-on: error, gate: all): **3** error(s), **2** warning(s), **3** note(s); read 4 files, 4 tool calls, 4 results. 2 suppressed.');
    expect(lines.slice(4, 7)).toEqual(['_Not compared with a baseline: no --baseline report given._', '', '**Most urgent:** 8 finding(s):']);
    expect(plain.stdout).not.toContain('New against the baseline');
  });

  it('nothing audited: says so, names the CLI flag (not the Action input), and compares nothing', async () => {
    writeFileSync(join(root, 'empty.jsonl'), '{}\n');
    const strict = await runInProcess(['audit', 'empty.jsonl', '--format', 'markdown', '--baseline', 'base.json', '--jobs', '1'], root);
    const allowed = await runInProcess(['audit', 'empty.jsonl', '--format', 'markdown', '--allow-empty', '--jobs', '1'], root);
    expect([strict.code, allowed.code]).toEqual([1, 0]);
    expect(strict.stdout.split('\n').slice(0, 9)).toEqual([
      '## agent-trace-audit: ⚠️ nothing audited: no tool call was read from 1 file',
      '',
      '**Failed** (fail-on: error, gate: all, without --allow-empty): **0** error(s), **1** warning(s), **0** note(s); read 1 file, 0 tool calls, 0 results, 1 file not read.',
      '',
      '**1 of 1 trace file not read (1 unknown format):**',
      '',
      '- `empty.jsonl`: unknown format: no format reads it',
      '',
      '_gate: new judged on all findings: nothing was audited_',
    ]);
    expect(strict.stdout).toContain('_Not compared with a baseline: nothing was audited._');
    expect(strict.stdout).not.toContain('Fixed against the baseline');
    expect(allowed.stdout.split('\n')[2]).toBe('**Nothing audited** (fail-on: error, gate: all, with --allow-empty): **0** error(s), **1** warning(s), **0** note(s); read 1 file, 0 tool calls, 0 results, 1 file not read.');
  });

  it('past what it lists (1,000 findings), it names how to get them all, not a JSON report that may not exist (-o)', async () => {
    const dir = tempDir();
    const calls = Array.from({ length: 1100 }, (_, i) => JSON.stringify({ run_id: 'big', kind: 'tool_call', call_id: `c${i}`, tool: 'x' }));
    writeFileSync(join(dir, 'big.jsonl'), `${calls.join('\n')}\n`);
    const run = await runInProcess(['audit', 'big.jsonl', '--format', 'markdown', '-o', 'big.md', '--jobs', '1'], dir);
    expect(run.code).toBe(1);
    // 1,000 orphan-call findings listed and one that counts the rest (limits.max-findings-per-rule), one catalog-missing: python3 counts them.
    expect((await runInProcess(['audit', 'big.jsonl', '--format', 'json', '-o', 'big.json', '--jobs', '1'], dir)).code).toBe(1);
    const total = Number(execFileSync('python3', ['-c', 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))', join(dir, 'big.json')], { encoding: 'utf8' }));
    expect(total).toBe(1002);
    expect(run.stderr).toBe('❌ 1,001 errors\n');
    const md = readFileSync(join(dir, 'big.md'), 'utf8');
    expect(md).toContain(`**Most urgent:** the 50 most urgent of ${total} finding(s):`);
    expect(md).toContain(`- … and ${total - 50} more in the Findings list below.`);
    expect(md).toContain(`_Not shown here (the list stops at 1,000 findings): ${total - 1000} of ${total} finding(s). \`--format json\` (or \`text\`) lists them all._`);
    expect(md).not.toContain('JSON report');
    expect(md.length).toBeLessThanOrEqual(1024 * 1024);
  });
});

