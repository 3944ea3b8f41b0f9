import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

describe('duplicate-call-id', () => {
  it('flags the second call that reuses an id in the same run', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'read_file' },
        { run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'read_file' },
        { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'search' },
        { run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'search' },
        { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'search' },
      ),
    });
    expect(findingsOf(result, 'duplicate-call-id')).toEqual([
      { line: 3, callId: 'c1', tool: 'search', runId: 'r', message: "call id 'c1' ('search') was already used by the call to 'read_file' at line 1 in this run" },
      { line: 5, callId: 'c1', tool: 'search', runId: 'r', message: "call id 'c1' ('search') was already used by the call to 'read_file' at line 1 in this run" },
    ]);
  });

  it('does not flag the same id in two runs, parallel calls with their own ids, or id-less calls', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'a', kind: 'tool_call', call_id: 'c1', tool: 'ls' },
        { run_id: 'a', kind: 'tool_result', call_id: 'c1', tool: 'ls' },
        { run_id: 'b', kind: 'tool_call', call_id: 'c1', tool: 'ls' },
        { run_id: 'b', kind: 'tool_call', call_id: 'c2', tool: 'ls' },
        { run_id: 'b', kind: 'tool_result', call_id: 'c2', tool: 'ls' },
        { run_id: 'b', kind: 'tool_result', call_id: 'c1', tool: 'ls' },
        { type: 'tool_call', name: 'grep', arguments: { pattern: 'x' } },
        { type: 'tool_result', name: 'grep' },
        { type: 'tool_call', name: 'grep', arguments: { pattern: 'y' } },
        { type: 'tool_result', name: 'grep' },
      ),
    });
    expect(findingsOf(result, 'duplicate-call-id')).toEqual([]);
    expect(result.findings.filter((f) => f.severity !== 'note').map((f) => f.ruleId)).toEqual([]);
  });
});
