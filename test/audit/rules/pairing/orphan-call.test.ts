import { describe, expect, it } from 'vitest';
import { orphanCall } from '../../../../src/audit/rules/pairing/orphan-call.js';
import type { FindingDraft } from '../../../../src/audit/rules/rule-types.js';
import type { TraceRecord } from '../../../../src/model/records.js';
import { runOf } from '../../../../src/audit/held/hold.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';
import { RunMemos } from '../../../../src/audit/held/memo.js';

describe('orphan-call', () => {
  it('flags a call with no result and says the model kept going', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'r_18', kind: 'tool_call', call_id: 'c_9', tool: 'web_search', args_hash: 'a1f3', deadline_ms: 8000 },
        { run_id: 'r_18', kind: 'llm' },
      ),
    });
    expect(findingsOf(result, 'orphan-call')).toEqual([
      { line: 1, callId: 'c_9', tool: 'web_search', runId: 'r_18', message: "call 'c_9' to 'web_search' has no result (the model kept generating afterwards)" },
    ]);
  });

  it('says nothing followed when the run ends on the call', async () => {
    const result = await auditFiles({ 't.jsonl': jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'ls' }) });
    expect(findingsOf(result, 'orphan-call').map((f) => f.message)).toEqual(["call 'c' to 'ls' has no result (nothing followed it in the run)"]);
  });

  it('pairs per run: the same call id in another run does not answer it', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'a', kind: 'tool_call', call_id: 'c1', tool: 'ls' },
        { run_id: 'b', kind: 'tool_result', call_id: 'c1', tool: 'ls' },
      ),
    });
    expect(findingsOf(result, 'orphan-call').map((f) => [f.line, f.runId])).toEqual([[1, 'a']]);
    expect(findingsOf(result, 'unmatched-result').map((f) => [f.line, f.runId])).toEqual([[2, 'b']]);
  });

  it('does not flag paired calls, parallel calls of one tool, or id-less calls answered in order', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'read_file' },
        { run_id: 'r', kind: 'tool_call', call_id: 'c2', tool: 'read_file' },
        { run_id: 'r', kind: 'tool_result', call_id: 'c2', tool: 'read_file' },
        { run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'read_file' },
        { type: 'tool_call', name: 'grep', arguments: { pattern: 'x' } },
        { type: 'tool_result', name: 'grep', exit_code: 0 },
      ),
    });
    expect(findingsOf(result, 'orphan-call')).toEqual([]);
    expect(findingsOf(result, 'unmatched-result')).toEqual([]);
  });
});

describe('orphan-call on records that share a line (whole-document formats)', () => {
  const base = { runId: 'r', ts: null, spanId: null, catalogSha256: null, loc: { file: 'f', line: 1 } };
  const call = (callId: string): TraceRecord => ({ kind: 'tool_call', ...base, callId, tool: 'ls', args: {}, argsHash: null, deadlineMs: null, index: null });
  const llm: TraceRecord = { kind: 'llm', ...base, endTs: null };
  const messages = (records: TraceRecord[]) => {
    const found: FindingDraft[] = [];
    orphanCall.check!(runOf('f', 'r', 'test', records), { options: {}, state: undefined, memos: new RunMemos(), metric() {} }, (d) => found.push(d));
    return found.map((f) => f.message);
  };

  it('tells by record order whether the model went on: an llm record after the call', () => {
    expect(messages([llm, call('c1'), llm])).toEqual(["call 'c1' to 'ls' has no result (the model kept generating afterwards)"]);
  });

  it('an llm record only before the call is not "afterwards"', () => {
    expect(messages([llm, call('c1')])).toEqual(["call 'c1' to 'ls' has no result (nothing followed it in the run)"]);
  });
});
