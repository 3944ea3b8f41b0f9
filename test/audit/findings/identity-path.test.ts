import { describe, expect, it } from 'vitest';
import { normaliseMessage, normalisePath } from '../../../src/audit/findings/identity-path.js';
import { jsonl, reportOfFiles } from '../../helpers.js';

describe('the path a fingerprint holds', () => {
  it('makes the segments a run generates generic, and keeps the names a team gave', () => {
    const cases: Array<[string, string]> = [
      ['projects/-work-repo/3f2c9a10-1b2c-4d5e-8f90-a1b2c3d4e5f6.jsonl', 'projects/-work-repo/{uuid}.jsonl'],
      ['logs/2026-01-05T10-11-12+00-00_shop_SzbbBvBNvjpGmVsHnHDWhL.eval', 'logs/{time}_shop_{id}.eval'],
      ['traces/suite-20260105T101112Z.jsonl', 'traces/suite-{time}.jsonl'],
      ['out/run-17/attempt_2/trace.jsonl', 'out/run-{n}/attempt_{n}/trace.jsonl'],
      ['a/1767225600000.json', 'a/{number}.json'],
      ['traces/deadbeefcafe1234.json', 'traces/{hex}.json'],
      ['otel/trace-0af7651916cd43dd8448eb211c80319c.json', 'otel/trace-{uuid}.json'],
      ['x 10:11:12.jsonl', 'x {time}.jsonl'],
      ['scenario1.jsonl', 'scenario1.jsonl'],
      ['MyVeryLongTestScenarioName.jsonl', 'MyVeryLongTestScenarioName.jsonl'],
      ['checkout/refund-flow.jsonl', 'checkout/refund-flow.jsonl'],
    ];
    expect(cases.map(([path]) => normalisePath(path))).toEqual(cases.map(([, normal]) => normal));
  });

  it('makes every number of a file finding\'s message generic', () => {
    expect(normaliseMessage('line 12 is not JSON (after line 3 of run-7)')).toBe('line # is not JSON (after line # of run-{n})');
  });
});

describe('the call a fingerprint holds: tool, canonical arguments, occurrence', () => {
  const call = (run: string, id: string, args: unknown) => ({ run_id: run, run_name: 'suite', kind: 'tool_call', call_id: id, tool: 'search', args });
  it('tells the second of two identical calls from the first, and ignores key order and call ids', async () => {
    const first = await reportOfFiles({ 't.jsonl': jsonl(call('r1', 'a', { q: 1, p: 2 }), call('r1', 'b', { q: 1, p: 2 })) });
    const again = await reportOfFiles({ 't.jsonl': jsonl(call('r9', 'y', { p: 2, q: 1 }), call('r9', 'z', { p: 2, q: 1 })) });
    const orphans = (r: typeof first) => r.findings.filter((f) => f.ruleId === 'orphan-call').map((f) => f.fingerprint);
    expect(orphans(first)).toHaveLength(2);
    expect(new Set(orphans(first)).size).toBe(2);
    expect(orphans(again)).toEqual(orphans(first));
    // Other arguments: another call.
    const other = await reportOfFiles({ 't.jsonl': jsonl(call('r9', 'y', { p: 2, q: 2 }), call('r9', 'z', { p: 2, q: 1 })) });
    expect(orphans(other)[0]).not.toBe(orphans(first)[0]);
  });
});
