import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const rec = (run: string, kind: string, call: string) => ({ run_id: run, kind, call_id: call, tool: 'ls' });

describe('run-split', () => {
  const lines = jsonl(rec('a', 'tool_call', 'c1'), rec('b', 'tool_call', 'x'), rec('b', 'tool_result', 'x'), rec('b', 'llm', ''), rec('a', 'tool_result', 'c1'));

  it('reports a run that resumes after the idle window closed it', async () => {
    const result = await auditFiles({ 't.jsonl': lines }, { limits: { 'run-idle-records': 2 } });
    // Sweeps run every 1024 records, so a tiny file only closes at its end: no split.
    expect(findingsOf(result, 'run-split')).toEqual([]);
  });

  it('splits at the window on a long file, says so, and pairing inside each part still works', async () => {
    const filler = Array.from({ length: 1100 }, (_, i) => rec('b', i % 2 === 0 ? 'tool_call' : 'tool_result', `x${i >> 1}`));
    const text = jsonl(rec('a', 'tool_call', 'c1'), ...filler, rec('a', 'tool_result', 'c1'));
    const split = await auditFiles({ 't.jsonl': text }, { limits: { 'run-idle-records': 500 } });
    expect(findingsOf(split, 'run-split')).toEqual([
      { line: 1102, runId: 'a', callId: null, tool: null, message: 'run resumed 1101 lines after its last record; it was audited in parts (raise limits.run-idle-records, or 0 to keep runs open)' },
    ]);
    expect(split.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
      ['a', 1, 0],
      ['b', 550, 550],
      ['a', 0, 1],
    ]);
    const whole = await auditFiles({ 't.jsonl': text }, { limits: { 'run-idle-records': 0 } });
    expect(findingsOf(whole, 'run-split')).toEqual([]);
    expect(whole.findings.filter((f) => f.severity !== 'note')).toEqual([]);
  });
});
