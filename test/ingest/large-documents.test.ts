import { describe, expect, it } from 'vitest';
import { auditTemp, countRun } from './corpus.js';

/** A payload that pushes a document past the 1 MiB detection head. */
const PAD = 'x'.repeat(1_200_000);

describe('one-document formats larger than the detection head', () => {
  it('detects an Inspect .json log by its opening keys and reads it whole', async () => {
    const log = {
      version: 2,
      status: 'success',
      eval: { task: 't' },
      samples: [{ id: 1, epoch: 1, messages: [{ role: 'user', content: PAD }, { role: 'assistant', tool_calls: [{ id: 'c', function: 'bash', arguments: { cmd: 'ls' } }] }] }],
    };
    const { result, runs } = await auditTemp({ 'big.json': JSON.stringify(log, null, 2) });
    expect(result.files.map((f) => f.format)).toEqual(['inspect']);
    expect(runs.map(countRun)).toEqual([{ runId: '1#1', llm: 1, calls: 1, results: 0, errors: 0, orphans: ['c:bash'], unmatched: [], catalog: [] }]);
  });

  it('detects a Langfuse export, an OpenAI trajectory list and an MCP message list', async () => {
    const langfuse = { trace: { id: 't', projectId: 'p', input: PAD }, observations: [{ id: 'o', type: 'GENERATION', startTime: '2025-01-01T00:00:00Z', output: [] }] };
    const openai = [{ messages: [{ role: 'user', content: PAD }, { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'ls', arguments: '{}' } }] }] }];
    const mcp = [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: PAD } } }];
    const { result } = await auditTemp({ 'a.json': JSON.stringify(langfuse), 'b.json': JSON.stringify(openai), 'c.json': JSON.stringify(mcp) });
    expect(result.files.map((f) => [f.path, f.format, f.records])).toEqual([
      ['a.json', 'langfuse', 1],
      ['b.json', 'openai', 2],
      ['c.json', 'mcp', 1],
    ]);
  });
});
