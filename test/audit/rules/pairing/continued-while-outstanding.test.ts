import { describe, expect, it } from 'vitest';
import { continuedWhileOutstanding } from '../../../../src/audit/rules/pairing/continued-while-outstanding.js';
import type { FindingDraft } from '../../../../src/audit/rules/rule-types.js';
import { runOf } from '../../../../src/audit/held/hold.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';
import { RunMemos } from '../../../../src/audit/held/memo.js';

const llm = { run_id: 'r_18', kind: 'llm', event: 'assistant_delta' };
const call = (id: string) => ({ run_id: 'r_18', kind: 'tool_call', call_id: id, tool: 'web_search', args_hash: 'a1f3' });
const result = (id: string) => ({ run_id: 'r_18', kind: 'tool_result', call_id: id, tool: 'web_search' });

describe('continued-while-outstanding', () => {
  it('flags the seed incident: llm deltas after a call that never got a result', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(llm, call('c_9'), llm) });
    expect(findingsOf(audit, 'continued-while-outstanding')).toEqual([
      {
        line: 2,
        callId: 'c_9',
        tool: 'web_search',
        runId: 'r_18',
        message: "the model produced 1 llm span(s) while call 'c_9' to 'web_search' was outstanding (first at line 3) and no result ever arrived",
      },
    ]);
  });

  it('flags llm spans between a call and its result, once per call', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(call('c1'), call('c2'), llm, result('c2'), llm, result('c1'), llm) });
    expect(findingsOf(audit, 'continued-while-outstanding')).toEqual([
      {
        line: 1,
        callId: 'c1',
        tool: 'web_search',
        runId: 'r_18',
        message: "the model produced 2 llm span(s) while call 'c1' to 'web_search' was outstanding (first at line 3) before its result arrived",
      },
      {
        line: 2,
        callId: 'c2',
        tool: 'web_search',
        runId: 'r_18',
        message: "the model produced 1 llm span(s) while call 'c2' to 'web_search' was outstanding (first at line 3) before its result arrived",
      },
    ]);
  });

  it('does not flag a model that waits for every result, or llm spans of another run', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(llm, call('c1'), call('c2'), result('c2'), result('c1'), llm, call('c3'), { ...llm, run_id: 'other' }, result('c3'), llm),
    });
    expect(findingsOf(audit, 'continued-while-outstanding')).toEqual([]);
  });
});

describe('continued-while-outstanding on records that share a line', () => {
  it('does not count the llm span of the message that made the call, but counts later ones', () => {
    const base = { runId: 'r', ts: null, spanId: null, catalogSha256: null };
    const at = (line: number) => ({ file: 'f', line });
    const run = runOf('f', 'r', 'test', [
      { kind: 'tool_call', ...base, loc: at(1), callId: 'c1', tool: 'grep', args: {}, argsHash: null, deadlineMs: null, index: null },
      { kind: 'llm', ...base, loc: at(1), endTs: null },
      { kind: 'tool_result', ...base, loc: at(2), callId: 'c1', tool: 'grep', content: 'x', isError: false, errorClass: null, errorCode: null, httpStatus: null, exitCode: null, index: null },
      { kind: 'tool_call', ...base, loc: at(3), callId: 'c2', tool: 'grep', args: {}, argsHash: null, deadlineMs: null, index: null },
      { kind: 'llm', ...base, loc: at(3), endTs: null },
      { kind: 'llm', ...base, loc: at(4), endTs: null },
    ]);
    const found: FindingDraft[] = [];
    continuedWhileOutstanding.check!(run, { options: {}, state: undefined, memos: new RunMemos(), metric() {} }, (d) => found.push(d));
    expect(found.map((d) => [d.loc.line, d.callId, d.message])).toEqual([
      [3, 'c2', "the model produced 1 llm span(s) while call 'c2' to 'grep' was outstanding (first at line 4) and no result ever arrived"],
    ]);
  });
});
