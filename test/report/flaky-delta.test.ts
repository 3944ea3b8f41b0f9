import { describe, expect, it } from 'vitest';
import { makeFinding } from '../../src/audit/findings/findings.js';
import type { Finding } from '../../src/model/finding.js';
import { compareWithBases, findingDelta } from '../../src/report/verdict/delta.js';
import type { Report } from '../../src/report/schema.js';

// The comparison with several base reports (src/report/verdict/delta.ts), counted by hand: for the
// j-th head finding of a fingerprint, k of the n bases had it at least j times.
const at = (ruleId: string, line: number): Finding => makeFinding(ruleId, ruleId === 'orphan-call' ? 'error' : 'warning', { loc: { file: 'a.jsonl', line }, message: `${ruleId} at ${line}`, key: `case ${line}` });

function report(findings: Finding[], rulesRun?: Array<{ id: string; version: number }>, version = '0.1.0'): Report {
  return {
    schemaVersion: 1,
    tool: { name: 'agent-trace-audit', version },
    summary: { files: 1, runs: 1, toolCalls: 5, toolResults: 5, findings: { error: 0, warning: 0, note: 0 } },
    files: [],
    runs: [],
    rules: [],
    ...(rulesRun ? { rulesRun } : {}),
    metrics: {},
    findings,
  };
}

const x = at('retry-storm', 1);
const y = at('orphan-call', 2);
const z = at('orphan-call', 3);

describe('several base reports', () => {
  it('counts each occurrence: twice in the head where the bases had it 2, 1 and 0 times is flaky twice (2 of 3, then 1 of 3)', () => {
    const bases = [report([x, x]), report([x]), report([])];
    const { delta, findings } = compareWithBases(bases, report([x, x]));
    expect(findings.map((f) => [f.baselineState, f.baselineSeen])).toEqual([
      ['flaky', { runs: 2, of: 3 }],
      ['flaky', { runs: 1, of: 3 }],
    ]);
    expect(delta.flaky.map((f) => [f.seenIn, f.of])).toEqual([[2, 3], [1, 3]]);
    expect([delta.added.length, delta.fixed.length, delta.notCompared.length, delta.baselines]).toEqual([0, 0, 0, 3]);
  });

  it('fixed: as often as every base had it; one only some had is neither fixed nor listed', () => {
    const bases = [report([y, z, z, x]), report([y, z, z]), report([y, z])];
    const delta = findingDelta(bases, report([]));
    // y in all three: fixed once; z in all at least once: fixed once (its second only in two); x in one: not fixed.
    expect(delta.fixed.map((f) => f.line)).toEqual([2, 3]);
  });

  it('new, unchanged and, with one base, the plain count difference', () => {
    const { findings, delta } = compareWithBases([report([y])], report([y, y, x]));
    expect(findings.map((f) => f.baselineState)).toEqual(['unchanged', 'new', 'new']);
    expect(delta.added.map((f) => f.line)).toEqual([2, 1]);
  });

  it('rule versions: a rule no base ran at the head version is not compared, and only bases that ran it count for it', () => {
    const ran = (storm: number) => [{ id: 'retry-storm', version: storm }, { id: 'orphan-call', version: 1 }];
    const head = report([x, y], ran(2));
    // No base ran retry-storm at version 2: not compared; orphan-call compared as usual.
    const old = compareWithBases([report([x], ran(1)), report([], ran(1))], head);
    expect(old.findings.map((f) => f.baselineState)).toEqual(['not-compared', 'new']);
    // One base did: it alone counts for the rule (1 of 1: unchanged), the other not at all.
    const mixed = compareWithBases([report([x], ran(2)), report([], ran(1))], head);
    expect(mixed.findings.map((f) => f.baselineState)).toEqual(['unchanged', 'new']);
    // A base finding of a rule the head did not run (not in its rulesRun) is not fixed.
    expect(findingDelta([report([z], ran(1))], report([], [{ id: 'retry-storm', version: 1 }])).fixed).toEqual([]);
    expect(findingDelta([report([z], ran(1))], report([], ran(1))).fixed.map((f) => f.line)).toEqual([3]);
    // A base without rulesRun (an older report) ran every rule at version 1.
    expect(compareWithBases([report([x], undefined, '0.0.9')], head).delta).toMatchObject({ baseVersion: '0.0.9', notCompared: [expect.objectContaining({ ruleId: 'retry-storm' })] });
    expect(compareWithBases([report([x])], report([x])).findings.map((f) => f.baselineState)).toEqual(['unchanged']);
  });
});
