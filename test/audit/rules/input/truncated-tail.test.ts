import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const call = { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'ls' };

describe('truncated-tail', () => {
  it('flags a last line cut mid-record, and the call it left unanswered', async () => {
    const result = await auditFiles({ 't.jsonl': `${jsonl(call)}{"kind":"tool_result","run_id":"r","call_` });
    expect(findingsOf(result, 'truncated-tail').map((f) => [f.line, f.message])).toEqual([
      [2, 'last line is cut short (no final newline, incomplete JSON): "{"kind":"tool_result","run_id":"r","call_"'],
    ]);
    expect(findingsOf(result, 'orphan-call').map((f) => f.line)).toEqual([1]);
    expect(findingsOf(result, 'missing-final-newline')).toEqual([]);
  });

  it('flags a last line cut inside a UTF-8 character', async () => {
    const bytes = Buffer.concat([Buffer.from(jsonl(call)), Buffer.from('{"kind":"llm","run_id":"é'), Buffer.from([0xe2, 0x82])]);
    const result = await auditFiles({ 't.jsonl': bytes });
    expect(findingsOf(result, 'truncated-tail').map((f) => [f.line, f.message])).toEqual([[2, 'last line is cut short: invalid UTF-8 at byte 26 of the line']]);
  });

  it('flags a gzip stream that ends early, after reading what it holds', async () => {
    const gz = gzipSync(Buffer.from(jsonl(call, { run_id: 'r', kind: 'llm' })));
    const result = await auditFiles({ 't.jsonl.gz': gz.subarray(0, gz.length - 6) });
    expect(findingsOf(result, 'truncated-tail').map((f) => f.message)).toEqual([expect.stringMatching(/^the gzip stream ends early/)]);
  });

  it('does not flag a complete file, nor a complete last line without a newline', async () => {
    const result = await auditFiles({ 'a.jsonl': jsonl(call), 'b.jsonl': JSON.stringify(call) });
    expect(findingsOf(result, 'truncated-tail')).toEqual([]);
  });
});
