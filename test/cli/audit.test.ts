import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { jsonl, tempTree } from '../helpers.js';
import { runBundle } from './run-cli.js';

const orphanLog = jsonl(
  { ts: '2026-09-07T09:14:01.440Z', run_id: 'r_18', span_id: 's2', kind: 'tool_call', call_id: 'c_9', tool: 'web_search', args_hash: 'a1f3', deadline_ms: 8000 },
  { ts: '2026-09-07T09:14:04.201Z', run_id: 'r_18', span_id: 's3', kind: 'llm', event: 'assistant_delta' },
);

describe('agent-trace-audit audit (dist/cli.js)', () => {
  it('exits 1 on an orphan call and prints it at the call line', () => {
    const root = tempTree({ 'sample_orphan.jsonl': orphanLog });
    const { code, stdout, stderr } = runBundle(['audit', 'sample_orphan.jsonl'], root);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout).toContain("error     orphan-call                  sample_orphan.jsonl:1  r_18  c_9   call 'c_9' to 'web_search' has no result (the model kept generating afterwards)");
  });

  it('--format json validates against the report schema and is byte-identical across runs', () => {
    const root = tempTree({ 'a.jsonl': orphanLog, 'b/c.jsonl': jsonl({ run_id: 'x', kind: 'tool_result', call_id: 'nope' }) });
    const first = runBundle(['audit', '.', '--format', 'json'], root);
    const second = runBundle(['audit', '.', '--format', 'json'], root);
    expect(first.code).toBe(1);
    expect(first.stdout).toBe(second.stdout);
    const report = reportSchema.parse(JSON.parse(first.stdout));
    expect(report.summary).toEqual({ files: 2, runs: 2, toolCalls: 1, toolResults: 1, findings: { error: 2, warning: 1, note: 1 } });
    expect(report.findings.map((f) => [f.file, f.line, f.ruleId])).toEqual([
      ['a.jsonl', 1, 'catalog-missing'],
      ['a.jsonl', 1, 'continued-while-outstanding'],
      ['a.jsonl', 1, 'orphan-call'],
      ['b/c.jsonl', 1, 'unmatched-result'],
    ]);
    expect(report.files).toEqual([
      { path: 'a.jsonl', format: 'native-jsonl', records: 2, runs: 1, skipped: [], toolCalls: 1, toolResults: 0 },
      { path: 'b/c.jsonl', format: 'native-jsonl', records: 1, runs: 1, skipped: [], toolCalls: 0, toolResults: 1 },
    ]);
    // The report is JSON on stdout, alone: the one-line verdict goes to stderr with -o only.
    expect(first.stderr).toBe('');
  });

  it('a file with a non-JSON line, an invalid UTF-8 line and a cut last line still reports its good lines', () => {
    const bytes = Buffer.concat([
      Buffer.from(orphanLog),
      Buffer.from('garbage\n'),
      Buffer.from([0x7b, 0xff, 0x7d, 0x0a]),
      Buffer.from('{"kind":"tool_result","run_id":"r_18","call_id":"c_'),
    ]);
    const root = tempTree({ 'mixed.jsonl': bytes });
    const { code, stdout } = runBundle(['audit', 'mixed.jsonl', '--format', 'json'], root);
    expect(code).toBe(1);
    const report = reportSchema.parse(JSON.parse(stdout));
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => [f.line, f.ruleId])).toEqual([
      [1, 'orphan-call'],
      [3, 'malformed-record'],
      [4, 'malformed-record'],
      [5, 'truncated-tail'],
    ]);
  });

  it('--fail-on sets the gate: never → 0, note → 1 on a note', () => {
    const root = tempTree({ 'a.jsonl': orphanLog, 'n.jsonl': '{"kind":"llm","run_id":"z"}' });
    expect(runBundle(['audit', 'a.jsonl', '--fail-on', 'never'], root).code).toBe(0);
    // n.jsonl holds no tool call: nothing audited fails, unless --allow-empty; its note then gates at note.
    const empty = runBundle(['audit', 'n.jsonl'], root);
    expect([empty.code, empty.stdout.split('\n')[0]]).toEqual([1, '⚠️ nothing audited: no tool call was read from 1 file']);
    expect(runBundle(['audit', 'n.jsonl', '--allow-empty'], root).code).toBe(0);
    expect(runBundle(['audit', 'n.jsonl', '--allow-empty', '--fail-on', 'note'], root).code).toBe(1);
  });

  it('--gate new with --baseline fails on new errors only; a run against its own report passes', () => {
    const root = tempTree({ 'a.jsonl': orphanLog, 'b.jsonl': jsonl({ run_id: 'x', kind: 'tool_result', call_id: 'nope' }) });
    const base = runBundle(['audit', 'a.jsonl', '-f', 'json', '-o', 'base.json'], root);
    expect([base.code, base.stderr]).toEqual([1, '❌ 1 error\n']);
    const head = runBundle(['audit', 'a.jsonl', 'b.jsonl', '--baseline', 'base.json', '-o', 'head.txt'], root);
    expect([head.code, head.stderr]).toEqual([1, '❌ 1 new error (2 errors in all)\n']);
    const again = runBundle(['audit', 'a.jsonl', '--baseline', 'base.json'], root);
    expect([again.code, again.stdout.split('\n')[0]]).toEqual([0, '✅ no new findings (1 existing error)']);
    const all = runBundle(['audit', 'a.jsonl', '--baseline', 'base.json', '--gate', 'all'], root);
    expect([all.code, all.stdout.split('\n')[0]]).toEqual([1, '❌ 1 error']);
    const noBase = runBundle(['audit', 'a.jsonl', '--gate', 'new'], root);
    expect(noBase.stdout.split('\n').slice(0, 2)).toEqual(['❌ 1 error', 'gate: new judged on all findings: no baseline (no --baseline given)']);
    expect(runBundle(['audit', 'a.jsonl', '--baseline', 'a.jsonl'], root).stderr).toBe('invalid-report: a.jsonl: not an agent-trace-audit report (not JSON); --baseline reads the reports `audit --format json` writes\n');
  });

  it('usage, path and configuration errors exit 2 with one line and no stack', () => {
    const root = tempTree({ 'a.jsonl': orphanLog, 'bad.yml': 'rules:\n  no-such-rule: error\n', 'typo.yml': 'fail_on: error\n', 'docs/notes.md': 'x' });
    const cases: Array<[string[], string]> = [
      [['audit'], 'usage: audit needs at least one file, folder or glob'],
      [['audit', 'missing.jsonl'], 'no-such-path: no such file or directory: "missing.jsonl"'],
      [['audit', 'a.jsonl', '--format', 'xml'], 'usage: --format must be one of text, json, markdown, html, sarif, not "xml"'],
      [['audit', 'a.jsonl', '--bogus'], 'usage: unknown flag --bogus'],
      [['audit', 'a.jsonl', '--config', 'bad.yml'], 'config: bad.yml: rules.no-such-rule: unknown rule id "no-such-rule"'],
      [['audit', 'a.jsonl', '--config', 'typo.yml'], 'config: typo.yml: fail_on: unknown key (did you mean "fail-on"?)'],
      [['audit', 'a.jsonl', '--config', 'none.yml'], 'no-such-path: no such configuration file: "none.yml"'],
      [['frobnicate'], 'usage: unknown command "frobnicate" (commands: audit, replay, scope, seal, verify, merge, run, receive, formats)'],
    ];
    for (const [args, first] of cases) {
      const { code, stderr, stdout } = runBundle(args, root);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.split('\n')[0]).toBe(first);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('nothing to audit (a folder without traces, a glob that matches nothing) is the nothing-audited verdict: exit 1, 0 with --allow-empty', () => {
    const root = tempTree({ 'docs/notes.md': 'x' });
    for (const [args, warning] of [
      [['audit', 'docs'], ''],
      [['audit', 'nothing-*.jsonl'], 'warning: skipped nothing-*.jsonl: the pattern matched no file\n'],
    ] as const) {
      for (const allow of [false, true]) {
        const run = runBundle([...args, ...(allow ? ['--allow-empty'] : [])], root);
        expect([run.code, run.stderr, run.stdout.split('\n')[0]], args.join(' ')).toEqual([allow ? 0 : 1, warning, '⚠️ nothing audited: no trace file was found']);
      }
    }
    // With -o the verdict goes to stderr, as for any audit.
    const toFile = runBundle(['audit', 'docs', '--format', 'json', '-o', 'r.json'], root);
    expect([toFile.code, toFile.stderr, toFile.stdout]).toEqual([1, '⚠️ nothing audited: no trace file was found\n', '']);
  });

  it('reads agent-trace-audit.yml from the working folder', () => {
    const root = tempTree({ 'a.jsonl': orphanLog, 'agent-trace-audit.yml': 'rules:\n  orphan-call: warning\n  continued-while-outstanding: note\n' });
    const { code, stdout } = runBundle(['audit', 'a.jsonl', '--format', 'json'], root);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).findings.map((f: { ruleId: string; severity: string }) => `${f.ruleId}:${f.severity}`)).toEqual([
      'catalog-missing:note',
      'continued-while-outstanding:note',
      'orphan-call:warning',
    ]);
  });

  it('--version and --help', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(runBundle(['--version'], '.').stdout).toBe(`agent-trace-audit ${pkg.version}\n`);
    const help = runBundle(['--help'], '.');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('  audit    audit trace files, folders or globs and report every finding with its file and line\n');
  });
});

describe('golden reports of examples/', () => {
  for (const [format, ext] of [['text', 'txt'], ['markdown', 'md'], ['json', 'json']] as const) {
    it(`${format} output equals test/fixtures/golden/examples.${ext}`, () => {
      const { code, stdout } = runBundle(['audit', 'examples', '--format', format, '--fail-on', 'never'], '.');
      expect(code).toBe(0);
      const golden = `test/fixtures/golden/examples.${ext}`;
      if (process.env['UPDATE_GOLDEN'] === '1') {
        mkdirSync('test/fixtures/golden', { recursive: true });
        writeFileSync(golden, stdout);
      }
      expect(stdout).toBe(readFileSync(golden, 'utf8'));
    });
  }
});
