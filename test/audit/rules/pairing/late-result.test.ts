import { describe, expect, it } from 'vitest';
import { lateResult } from '../../../../src/audit/rules/pairing/late-result.js';
import type { FindingDraft } from '../../../../src/audit/rules/rule-types.js';
import { runOf } from '../../../../src/audit/held/hold.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';
import { RunMemos } from '../../../../src/audit/held/memo.js';

const llm = { run_id: 'r', kind: 'llm' };
const call = (id: string, extra: object = {}) => ({ run_id: 'r', kind: 'tool_call', call_id: id, tool: 'fetch', ...extra });
const result = (id: string, extra: object = {}) => ({ run_id: 'r', kind: 'tool_result', call_id: id, tool: 'fetch', ...extra });

describe('late-result', () => {
  it('flags a result that pairs after a budget miss', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(call('c1', { ts: '2026-09-07T09:14:00.000Z', deadline_ms: 1000 }), result('c1', { ts: '2026-09-07T09:14:01.500Z' }), llm),
    });
    expect(findingsOf(audit, 'late-result')).toEqual([
      { line: 2, callId: 'c1', tool: 'fetch', runId: 'r', message: "result for call 'c1' ('fetch') arrived 500 ms after the 1000 ms deadline of its call at line 1" },
    ]);
  });

  it("flags a result that came after the run's last llm span, for a call made before it", async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(llm, call('c1'), llm, result('c1')) });
    expect(findingsOf(audit, 'late-result')).toEqual([
      { line: 4, callId: 'c1', tool: 'fetch', runId: 'r', message: "result for call 'c1' ('fetch') arrived after the run's last llm span (line 3); the model finished without it" },
    ]);
  });

  it('gives both reasons in one finding when both hold', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(call('c1', { ts: 0, deadline_ms: 100 }), llm, result('c1', { ts: 250 })),
    });
    expect(findingsOf(audit, 'late-result').map((f) => [f.line, f.message])).toEqual([
      [3, "result for call 'c1' ('fetch') arrived 150 ms after the 100 ms deadline of its call at line 1, and after the run's last llm span (line 2); the model finished without it"],
    ]);
  });

  it('does not flag results in time, a run that ends on its own tool call, or a run without llm spans', async () => {
    const audit = await auditFiles({
      'a.jsonl': jsonl(llm, call('c1', { ts: 0, deadline_ms: 100 }), result('c1', { ts: 100 }), llm, call('c2'), result('c2')),
      'b.jsonl': jsonl(call('c1'), result('c1')),
    });
    expect(findingsOf(audit, 'late-result')).toEqual([]);
  });
});

describe('late-result on records that share a line', () => {
  it('does not flag the result of a call made by the last llm message itself', () => {
    const base = { runId: 'r', ts: null, spanId: null, catalogSha256: null };
    const at = (line: number) => ({ file: 'f', line });
    const run = runOf('f', 'r', 'test', [
      { kind: 'llm', ...base, loc: at(1), endTs: null },
      { kind: 'tool_call', ...base, loc: at(2), callId: 'c1', tool: 'submit', args: {}, argsHash: null, deadlineMs: null, index: null },
      { kind: 'llm', ...base, loc: at(2), endTs: null },
      { kind: 'tool_result', ...base, loc: at(3), callId: 'c1', tool: 'submit', content: 'ok', isError: false, errorClass: null, errorCode: null, httpStatus: null, exitCode: null, index: null },
    ]);
    const found: FindingDraft[] = [];
    lateResult.check!(run, { options: {}, state: undefined, memos: new RunMemos(), metric() {} }, (d) => found.push(d));
    expect(found).toEqual([]);
  });
});
