import { describe, expect, it } from 'vitest';
import { makeFinding } from '../../src/audit/findings/findings.js';
import { join } from 'node:path';
import { loadConfigFile, resolveConfig } from '../../src/config/config.js';
import { tempTree } from '../helpers.js';
import type { Severity } from '../../src/model/finding.js';
import { findingDelta } from '../../src/report/verdict/delta.js';
import { judge } from '../../src/report/verdict/judge.js';
import type { Report } from '../../src/report/schema.js';
import { decideVerdict, noFindingsSentence } from '../../src/report/verdict/verdict.js';

// A fingerprint holds no line (docs/report-schema.md): the key tells these findings apart.
const finding = (ruleId: string, severity: Severity, file: string, line: number) => makeFinding(ruleId, severity, { loc: { file, line }, message: `${ruleId} at ${line}`, key: `case ${line}` });

function report(findings: ReturnType<typeof finding>[], calls = 10, files: Report['files'] = [{ path: 'a.jsonl', format: 'native-jsonl', records: 20, runs: 1, skipped: [], toolCalls: calls, toolResults: calls }]): Report {
  const counts = { error: 0, warning: 0, note: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return {
    schemaVersion: 1,
    tool: { name: 'agent-trace-audit', version: '0.1.0' },
    summary: { files: files.length, runs: 1, toolCalls: calls, toolResults: calls, findings: counts },
    files,
    runs: [],
    rules: [],
    metrics: {},
    findings,
  };
}

const errors = (n: number, from = 0) => Array.from({ length: n }, (_, i) => finding('orphan-call', 'error', 'a.jsonl', from + i + 1));

describe('the verdict: one pure function every edge shows', () => {
  const base = report(errors(97));
  const head = report([...errors(94), ...errors(3, 1000), finding('unused-tool', 'note', 'a.jsonl', 5000)]);

  it('gate new: fails on the new errors only, and says both counts', () => {
    const v = decideVerdict({ report: head, failOn: 'error', gate: 'new', delta: findingDelta(base, head), allowEmpty: false });
    expect(v.state).toBe('failed');
    expect(v.failed).toBe(true);
    expect(v.headline).toBe('❌ 3 new errors (97 errors in all)');
    expect(v.added).toEqual({ error: 3, warning: 0, note: 1 });
    expect(v.delta?.fixed.length).toBe(3);
  });

  it('gate new with nothing new at the level passes and counts the existing ones', () => {
    const again = report(errors(97));
    const v = decideVerdict({ report: again, failOn: 'error', gate: 'new', delta: findingDelta(base, again), allowEmpty: false });
    expect(v.failed).toBe(false);
    expect(v.headline).toBe('✅ no new findings (97 existing errors)');
    const noted = decideVerdict({ report: head, failOn: 'error', gate: 'new', delta: findingDelta(head, head), allowEmpty: false });
    expect(noted.headline).toBe('✅ no new findings (97 existing errors)');
  });

  it('gate all (and new without a baseline, said in one line) fails on every error', () => {
    const all = decideVerdict({ report: head, failOn: 'error', gate: 'all', delta: null, allowEmpty: false });
    expect(all.headline).toBe('❌ 97 errors');
    expect(all.gateNote).toBeNull();
    const fallback = decideVerdict({ report: head, failOn: 'error', gate: 'new', delta: null, noBaseline: 'no --baseline given', allowEmpty: false });
    expect(fallback.gate).toBe('all');
    expect(fallback.failed).toBe(true);
    expect(fallback.gateNote).toBe('gate: new judged on all findings: no baseline (no --baseline given)');
    const warn = decideVerdict({ report: report([finding('unused-tool', 'note', 'a.jsonl', 1)]), failOn: 'warning', gate: 'all', delta: null, allowEmpty: false });
    expect(warn.headline).toBe('✅ no errors or warnings (1 note)');
    const never = decideVerdict({ report: head, failOn: 'never', gate: 'all', delta: null, allowEmpty: false });
    expect([never.failed, never.headline]).toEqual([false, '✅ not gated (fail-on: never): 97 errors, 1 note']);
  });

  it('nothing audited: never passed, never compared (no base finding counted as fixed), fails unless allowed', () => {
    const empty = report([finding('ingest-note', 'note', 'a.jsonl', 0)], 0);
    const v = decideVerdict({ report: empty, failOn: 'error', gate: 'new', delta: findingDelta(base, empty), allowEmpty: false });
    expect(v.state).toBe('nothing-audited');
    expect(v.failed).toBe(true);
    expect(v.delta).toBeNull();
    expect(v.headline).toBe('⚠️ nothing audited: no tool call was read from 1 file');
    expect(v.headline).not.toMatch(/pass/);
    expect(v.gateNote).toBe('gate: new judged on all findings: nothing was audited');
    const allowed = decideVerdict({ report: empty, failOn: 'error', gate: 'new', delta: null, allowEmpty: true });
    expect([allowed.failed, allowed.headline]).toEqual([false, v.headline]);
    const none = decideVerdict({ report: report([], 0, []), failOn: 'error', gate: 'all', delta: null, allowEmpty: false });
    expect(none.headline).toBe('⚠️ nothing audited: no trace file was found');
    expect(noFindingsSentence(report([], 0, []))).toBe('No findings, and nothing was audited: no tool call was read.');
  });

  it('partly read leads the line', () => {
    const files: Report['files'] = [
      { path: 'a.jsonl', format: 'openai', records: 4, runs: 1, skipped: [], toolCalls: 10, toolResults: 10 },
      { path: 'b.json', format: 'openai', records: 4, runs: 1, skipped: [], toolCalls: 0, toolResults: 0, toolShaped: 6 },
    ];
    const v = decideVerdict({ report: report([], 10, files), failOn: 'error', gate: 'all', delta: null, allowEmpty: false });
    expect(v.state).toBe('passed');
    expect(v.coverage.partlyRead).toBe(1);
    expect(v.headline).toBe('⚠️ partly read (1 of 2 files) · ✅ no errors');
  });
});

describe('suppressions leave the verdict, are listed with their reason, and are not counted as fixed', () => {
  it('by fingerprint and by rule + glob; an entry that matched nothing is a note', () => {
    const kept = finding('orphan-call', 'error', 'traces/a.jsonl', 1);
    const byPrint = finding('secret-in-trace', 'error', 'traces/a.jsonl', 2);
    const byGlob = finding('retry-storm', 'warning', 'traces/legacy/b.jsonl', 3);
    const head = report([kept, byPrint, byGlob]);
    const config = resolveConfig({
      suppress: [
        { fingerprint: byPrint.fingerprint, reason: 'a test key, rotated' },
        { rule: 'retry-storm', file: 'traces/legacy/**', reason: 'legacy suite retries on purpose' },
        { rule: 'unknown-tool', reason: 'nothing matches this' },
      ],
    });
    const judged = judge(head, { config, baseline: report([byPrint, byGlob]), defaultGate: 'new', allowEmpty: false });
    expect(judged.report.findings).toEqual([{ ...kept, baselineState: 'new' }]);
    expect(judged.report.summary.findings).toEqual({ error: 1, warning: 0, note: 0 });
    expect(judged.report.suppressed?.count).toBe(2);
    expect(judged.report.suppressed?.findings.map((f) => [f.ruleId, f.reason])).toEqual([
      ['secret-in-trace', 'a test key, rotated'],
      ['retry-storm', 'legacy suite retries on purpose'],
    ]);
    expect(judged.report.suppressed?.entries.map((e) => e.matched)).toEqual([1, 1, 0]);
    // The base's two findings are suppressed in the head: not fixed. The orphan is new.
    expect(judged.verdict.delta?.fixed).toEqual([]);
    expect(judged.verdict.headline).toBe('❌ 1 new error (1 error in all)');
    expect(judged.notes).toEqual(['note: the suppression of rule unknown-tool matched no finding; remove it or correct it']);
  });

  it('a suppression needs a reason, and a fingerprint or a known rule', async () => {
    expect(() => resolveConfig({ suppress: [{ rule: 'no-such-rule', reason: 'x' }] })).toThrow(/suppress\.0\.rule: unknown rule id "no-such-rule"/);
    const root = tempTree({
      'no-reason.yml': 'suppress:\n  - rule: orphan-call\n',
      'both.yml': 'suppress:\n  - rule: orphan-call\n    fingerprint: 0123456789abcdef\n    reason: x\n',
      'gate.yml': 'gate: newest\n',
    });
    await expect(loadConfigFile(join(root, 'no-reason.yml'), 'no-reason.yml')).rejects.toThrow(/^no-reason\.yml: suppress\.0\.reason/);
    await expect(loadConfigFile(join(root, 'both.yml'), 'both.yml')).rejects.toThrow(/give a fingerprint, or a rule/);
    await expect(loadConfigFile(join(root, 'gate.yml'), 'gate.yml')).rejects.toThrow(/^gate\.yml: gate/);
  });
});
