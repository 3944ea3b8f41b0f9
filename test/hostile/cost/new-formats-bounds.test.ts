import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';

const span = (id: string, attributes: object) =>
  JSON.stringify({ name: `execute_tool t${id}`, context: { trace_id: '0x0af7651916cd43dd8448eb211c80319c', span_id: `0x${id.padStart(16, '0')}` }, parent_id: null, start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-01T00:00:01Z', status: { status_code: 'UNSET' }, attributes }, null, 4);
const tool = (id: string) => ({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'ls', 'gen_ai.tool.call.id': `c${id}` });
const lines = (text: string) => text.split('\n').length;

describe('hostile: what the console-output reader holds is bounded', () => {
  it('an object of many short lines past the line limit is one finding (not buffered past it), and reading resumes at the next object', async () => {
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`attr.${i}`, 'value']));
    const text = `${span('1', tool('1'))}\n${span('2', { ...tool('2'), ...many })}\n${span('3', tool('3'))}\n`;
    const result = await auditFiles({ 'console.txt': text }, { limits: { 'max-line-bytes': 4096 } });
    expect(result.files).toEqual([{ path: 'console.txt', format: 'otel-spans', records: 4, runs: 1, skipped: [{ reason: 'malformed-record', count: 1, firstLine: 19 }], toolCalls: 2, toolResults: 2 }]);
    expect(findingsOf(result, 'malformed-record').map((f) => [f.line, f.message])).toEqual([[lines(span('1', tool('1'))) + 1, 'object starting here is longer than the limit of 4096 bytes (limits.max-line-bytes)']]);
  });

  it('one line over the limit inside an object is one finding, the rest of that object is passed over, and an unclosed last object is a cut tail', async () => {
    const first = span('1', tool('1'));
    const huge = span('2', { ...tool('2'), 'gen_ai.tool.call.arguments': 'x'.repeat(10_000) });
    const text = `${first}\nstray text\n${huge}\n${span('3', tool('3'))}\n{\n    "name": "never closed",\n`;
    const result = await auditFiles({ 'console.txt': text }, { limits: { 'max-line-bytes': 4096 } });
    expect(result.files).toEqual([{ path: 'console.txt', format: 'otel-spans', records: 4, runs: 1, skipped: [{ reason: 'malformed-record', count: 2, firstLine: 19 }, { reason: 'truncated-tail', count: 1, firstLine: 57 }], toolCalls: 2, toolResults: 2 }]);
    const longLine = lines(first) + 1 + huge.split('\n').findIndex((l) => l.length > 4096) + 1;
    expect(findingsOf(result, 'malformed-record').map((f) => [f.line, f.message])).toEqual([
      [lines(first) + 1, '1 line(s) outside any span object were skipped'],
      [longLine, `line of ${huge.split('\n').find((l) => l.length > 4096)!.length} bytes is longer than the limit of 4096 bytes (limits.max-line-bytes)`],
    ]);
    expect(findingsOf(result, 'truncated-tail').map((f) => [f.line, f.message])).toEqual([[lines(text) - 2, 'the last object is cut short (its braces never close)']]);
  });
});
