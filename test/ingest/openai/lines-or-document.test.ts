import { describe, expect, it } from 'vitest';
import { auditFiles } from '../../helpers.js';

/** Pushes a line past the 1 MiB detection head. */
const PAD = 'x'.repeat(1_200_000);
const conversation = (id: string, pad = '') => ({
  id,
  messages: [
    { role: 'user', content: `hi${pad}` },
    { role: 'assistant', content: null, tool_calls: [{ id: `${id}-c`, type: 'function', function: { name: 'ls', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: `${id}-c`, content: 'ok' },
  ],
});

describe('openai: JSON lines or one document, decided without reading the file whole', () => {
  it('reads JSON lines whose first line is longer than the detection head as lines', async () => {
    const text = `${JSON.stringify(conversation('a', PAD))}\n${JSON.stringify(conversation('b'))}\n`;
    const result = await auditFiles({ 't.jsonl': text });
    expect(result.files.map((f) => [f.format, f.records, f.runs])).toEqual([['openai', 6, 2]]);
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
      ['a', 1, 1],
      ['b', 1, 1],
    ]);
  });

  it('reads a one-line trajectory list (as json.dump writes it, no final newline) as one document, small or past the head', async () => {
    for (const pad of ['', PAD]) {
      const result = await auditFiles({ 't.json': JSON.stringify([conversation('a', pad), conversation('b')]) });
      expect(result.files.map((f) => [f.format, f.records, f.runs])).toEqual([['openai', 6, 2]]);
      expect(result.findings.map((f) => f.ruleId)).not.toContain('missing-final-newline');
      expect(result.findings.map((f) => f.ruleId)).not.toContain('malformed-record');
    }
  });
});

describe('openai: streamed documents', () => {
  it('a run state whose trace id is written after its items: the records wait for it', async () => {
    const state = {
      $schemaVersion: '1.0',
      original_input: [{ type: 'message', role: 'user', content: 'hi' }],
      generated_items: [
        { type: 'tool_call_item', raw_item: { type: 'function_call', call_id: 'c1', name: 'ls', arguments: '{}' } },
        { type: 'tool_call_output_item', raw_item: { type: 'function_call_output', call_id: 'c1', output: 'ok' } },
        { type: 'tool_call_item', raw_item: { type: 'function_call', call_id: 'c2', name: 'ls', arguments: '{}' } },
      ],
      trace: { trace_id: 'trace_9' },
    };
    const result = await auditFiles({ 's.json': JSON.stringify(state, null, 2) });
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([['trace_9', 2, 1]]);
    // The third generated item's `{` (python3: json.dumps(state, indent=2), line of its "type" minus one).
    expect(result.findings.filter((f) => f.ruleId === 'orphan-call').map((f) => [f.line, f.callId])).toEqual([[28, 'c2']]);
  });

  it('a pretty-printed bare message list is one run; a list mixing messages and other items (past the head, detected by its opening) is one malformed-record', async () => {
    const messages = conversation('a').messages;
    const result = await auditFiles({ 'm.json': JSON.stringify(messages, null, 2), 'x.json': JSON.stringify([...conversation('b', PAD).messages, { note: 'not a message' }], null, 2) });
    expect(result.runs.map((r) => [r.file, r.runId, r.toolCalls, r.toolResults])).toEqual([['m.json', null, 1, 1]]);
    expect(result.findings.filter((f) => f.ruleId === 'malformed-record').map((f) => [f.file, f.line, f.message])).toEqual([
      ['x.json', 1, 'no message list, trajectory list or run state in this document'],
    ]);
  });
});
