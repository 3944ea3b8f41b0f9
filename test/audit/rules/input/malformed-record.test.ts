import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const call = (id: string) => ({ run_id: 'r', kind: 'tool_call', call_id: id, tool: 'ls' });

describe('malformed-record', () => {
  it('reports each unreadable line with its reason and audits the good lines around it', async () => {
    const bytes = Buffer.concat([
      Buffer.from(jsonl(call('c1'))),
      Buffer.from('not json at all\n'),
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]), // {"\xff\xfe"}
      Buffer.from('{"tool":"ls","tool":"rm","kind":"tool_call","call_id":"x"}\n'),
      Buffer.from('[]\n"x"\n3\n{"a":1} {"b":2}\n'),
      Buffer.from('{"hello":"world"}\n'),
      Buffer.from(jsonl(call('c2'), { run_id: 'r', kind: 'tool_result', call_id: 'c2', tool: 'ls' })),
    ]);
    const result = await auditFiles({ 't.jsonl': bytes });
    expect(findingsOf(result, 'malformed-record').map((f) => [f.line, f.message])).toEqual([
      [2, 'not JSON: invalid syntax: "not json at all"'],
      [3, 'invalid UTF-8 at byte 2 of the line'],
      [4, 'duplicate object key "tool": "{"tool":"ls","tool":"rm","kind":"tool_call","call_id":"x"}"'],
      [5, 'record is a JSON array, not an object'],
      [6, 'record is a JSON string, not an object'],
      [7, 'record is a JSON number, not an object'],
      [8, 'not JSON: unexpected token at position 8: "{"a":1} {"b":2}"'],
      [9, 'record fits no native dialect (no kind, type, index or boundary fields): "{"hello":"world"}"'],
    ]);
    // The good lines were still audited: c1 is an orphan, c2 is paired.
    expect(findingsOf(result, 'orphan-call').map((f) => [f.line, f.callId])).toEqual([[1, 'c1']]);
    expect(result.runs).toEqual([{ file: 't.jsonl', runId: 'r', format: 'native-jsonl', catalogSha256: null, toolCalls: 2, toolResults: 1 }]);
  });

  it('rejects overlong encodings and encoded surrogates, accepts a NUL escape inside a string', async () => {
    const result = await auditFiles({
      't.jsonl': Buffer.concat([
        Buffer.from('{"kind":"llm","run_id":"'),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from('"}\n{"kind":"llm","run_id":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}\n{"kind":"llm","run_id":"a\\u0000b"}\n'),
      ]),
    });
    expect(findingsOf(result, 'malformed-record').map((f) => [f.line, f.message])).toEqual([
      [1, 'invalid UTF-8 at byte 24 of the line'],
      [2, 'invalid UTF-8 at byte 24 of the line'],
    ]);
    // The model keeps the id exactly; the report sanitizes it when printing (test/report).
    expect(result.runs.map((r) => r.runId)).toEqual(['a\u0000b']);
  });

  it('reports a line over the length limit and resumes at the next line', async () => {
    const long = `{"kind":"llm","run_id":"r","pad":"${'x'.repeat(2000)}"}\n`;
    const result = await auditFiles({ 't.jsonl': long + jsonl(call('c1')) }, { limits: { 'max-line-bytes': 1000 } });
    expect(findingsOf(result, 'malformed-record').map((f) => [f.line, f.message])).toEqual([
      [1, 'line of 2036 bytes is longer than the limit of 1000 bytes (limits.max-line-bytes)'],
    ]);
    expect(findingsOf(result, 'orphan-call').map((f) => f.line)).toEqual([2]);
  });

  it('caps nesting depth', async () => {
    const deep = `{"kind":"llm","run_id":"r","x":${'['.repeat(300)}${']'.repeat(300)}}\n`;
    const result = await auditFiles({ 't.jsonl': deep });
    expect(findingsOf(result, 'malformed-record').map((f) => f.message)).toEqual([
      expect.stringMatching(/^JSON nesting deeper than 256 levels: /),
    ]);
  });

  it('finds nothing in a clean file', async () => {
    const catalog = { type: 'catalog', run_id: 'r', catalog_names: ['ls'], catalog_sha256: 'ef26a00bf0e027554dd20863a1aea1f9b8f372f45df91fea27617f92d727b78d' };
    const result = await auditFiles({ 't.jsonl': jsonl(catalog, call('c1'), { run_id: 'r', kind: 'tool_result', call_id: 'c1' }) });
    expect(result.findings).toEqual([]);
  });
});
