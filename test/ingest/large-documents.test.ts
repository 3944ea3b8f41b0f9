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

  it('detects each new one-document format by its opening keys past the head (pretty-printed, as the tools write them)', async () => {
    const gemini = { sessionId: 's', projectHash: 'h', startTime: '2026-01-01T00:00:00Z', messages: [{ id: 'm', type: 'user', content: PAD }, { id: 'g', type: 'gemini', content: '', toolCalls: [{ id: 't', name: 'ls', args: {}, status: 'success', result: [] }] }] };
    const openhands = [{ id: 0, source: 'user', action: 'message', args: { content: PAD } }, { id: 1, source: 'agent', action: 'run', args: {}, tool_call_metadata: { function_name: 'execute_bash', tool_call_id: 'c' } }];
    const atif = { schema_version: 'ATIF-v1.4', session_id: 's', agent: { name: 'a' }, steps: [{ step_id: 1, source: 'user', message: PAD }, { step_id: 2, source: 'agent', tool_calls: [{ tool_call_id: 'c', function_name: 'bash', arguments: {} }] }] };
    const adk = { id: 's', app_name: 'a', user_id: 'u', events: [{ invocation_id: 'i', author: 'user', content: { parts: [{ text: 'hi' }] } }, { invocation_id: 'i', author: 'agent', content: { parts: [{ function_call: { name: 'f', args: { pad: PAD } } }] } }] };
    const spans = [{ name: 'execute_tool ls', context: { trace_id: '0x01', span_id: '0x02' }, parent_id: null, start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-01T00:00:01Z', attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'ls', 'gen_ai.tool.call.id': 'c', 'gen_ai.tool.call.arguments': PAD } }];
    const exported = { loglines: [{ type: 'user', message: { role: 'user', content: PAD } }, { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'Read', input: {} }] } }] };
    const files = { 'a.json': gemini, 'b.json': openhands, 'c.json': atif, 'd.json': adk, 'e.json': spans, 'f.json': exported };
    const { result } = await auditTemp(Object.fromEntries(Object.entries(files).map(([name, doc]) => [name, JSON.stringify(doc, null, 2)])));
    expect(result.files.map((f) => [f.path, f.format, f.records])).toEqual([
      ['a.json', 'gemini-cli', 3],
      ['b.json', 'openhands', 1],
      ['c.json', 'atif', 2],
      ['d.json', 'google-adk', 2],
      ['e.json', 'otel-spans', 2],
      ['f.json', 'claude-code-export', 2],
    ]);
  });
});
