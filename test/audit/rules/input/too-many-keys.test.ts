import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

/** A native call whose arguments hold `n` keys (the record holds n + 5 keys in all: run_id, kind, call_id, tool, args). */
const wide = (id: string, n: number) => ({ run_id: 'r1', kind: 'tool_call', call_id: id, tool: 'ls', args: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) });
const result = (id: string) => ({ run_id: 'r1', kind: 'tool_result', call_id: id, tool: 'ls', result: { ok: true } });

describe('too-many-keys', () => {
  it('with limits.max-record-keys 20, a call of 25 keys is left out and reported; the rest is audited', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(wide('c1', 2), result('c1'), wide('c2', 20), result('c2')) }, { limits: { 'max-record-keys': 20 } });
    expect(findingsOf(audit, 'too-many-keys')).toEqual([
      { line: 3, callId: null, tool: null, runId: null, message: 'record has 25 object keys, more than the limit of 20 keys (limits.max-record-keys); it was not read' },
    ]);
    expect(audit.findings.find((f) => f.ruleId === 'too-many-keys')!.severity).toBe('error');
    // The record was not read: c2's result has no call.
    expect(findingsOf(audit, 'unmatched-result').map((f) => f.callId)).toEqual(['c2']);
    expect(audit.files[0]!.records).toBe(3);
  });

  it('counts keys at every level, spaced before the colon too, and a record at the limit is read', async () => {
    const spaced = JSON.stringify(wide('c1', 16)).replace(/":/g, '" :');
    const audit = await auditFiles({ 'a.jsonl': `${spaced}\n`, 'b.jsonl': jsonl(wide('c1', 15), result('c1')) }, { limits: { 'max-record-keys': 20 } });
    expect(audit.findings.filter((f) => f.ruleId === 'too-many-keys').map((f) => [f.file, f.line, f.message])).toEqual([
      ['a.jsonl', 1, 'record has 21 object keys, more than the limit of 20 keys (limits.max-record-keys); it was not read'],
    ]);
  });

  it('by default allows 10,000 keys and refuses 60,000 before parsing them', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(wide('c1', 9_995), result('c1'), wide('c2', 60_000), result('c2')) });
    expect(findingsOf(audit, 'too-many-keys')).toEqual([
      { line: 3, callId: null, tool: null, runId: null, message: 'record has 60005 object keys, more than the limit of 10000 keys (limits.max-record-keys); it was not read' },
    ]);
  });
});
