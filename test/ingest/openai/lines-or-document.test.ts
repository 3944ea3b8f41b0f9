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
