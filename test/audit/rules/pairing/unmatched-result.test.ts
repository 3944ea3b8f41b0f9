import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

describe('unmatched-result', () => {
  it('flags a result whose call id was never issued (typed events)', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { type: 'tool_call', run_id: 'run-1', tool_call_id: 'call_pytest_1', name: 'pytest', arguments: { args: ['-q'] } },
        { type: 'tool_result', run_id: 'run-1', tool_call_id: 'call_pytest_1', name: 'pytest', exit_code: 0 },
        { type: 'tool_result', run_id: 'run-1', tool_call_id: 'call_missing_9', name: 'read_file', exit_code: 0 },
      ),
    });
    expect(findingsOf(result, 'unmatched-result')).toEqual([
      { line: 3, callId: 'call_missing_9', tool: 'read_file', runId: 'run-1', message: "result for call id 'call_missing_9' ('read_file') has no matching call in this run" },
    ]);
  });

  it('flags a result that arrives before its call, and the call as an orphan', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl({ run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'ls' }, { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'ls' }),
    });
    expect(findingsOf(result, 'unmatched-result').map((f) => f.line)).toEqual([1]);
    expect(findingsOf(result, 'orphan-call').map((f) => f.line)).toEqual([2]);
  });

  it('counts tool names like __proto__ and constructor as plain names', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'r', kind: 'tool_call', call_id: '__proto__', tool: 'constructor' },
        { run_id: 'r', kind: 'tool_result', call_id: '__proto__', tool: 'constructor' },
        { run_id: 'r', kind: 'tool_result', call_id: 'toString', tool: '__proto__' },
      ),
    });
    expect(findingsOf(result, 'unmatched-result').map((f) => [f.callId, f.tool])).toEqual([['toString', '__proto__']]);
    expect(findingsOf(result, 'orphan-call')).toEqual([]);
  });
});
