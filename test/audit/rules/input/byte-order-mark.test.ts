import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

describe('byte-order-mark', () => {
  it('notes a BOM and still reads the first record', async () => {
    const body = jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'ls' });
    const result = await auditFiles({ 't.jsonl': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]) });
    expect(findingsOf(result, 'byte-order-mark').map((f) => [f.line, f.message])).toEqual([[1, 'file starts with a UTF-8 byte order mark']]);
    expect(findingsOf(result, 'orphan-call').map((f) => f.callId)).toEqual(['c1']);
    expect(findingsOf(result, 'malformed-record')).toEqual([]);
  });

  it('says nothing without a BOM', async () => {
    const result = await auditFiles({ 't.jsonl': jsonl({ run_id: 'r', kind: 'llm' }) });
    expect(findingsOf(result, 'byte-order-mark')).toEqual([]);
  });
});
