import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';
import { auditTemp, countRun } from '../corpus.js';

const request = {
  model: 'claude-sonnet-4-5',
  system: 'You fix builds.',
  tools: [
    { name: 'run_tests', description: 'Run the tests', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'read_file', input_schema: { type: 'object' } },
  ],
  messages: [
    { role: 'user', content: 'The build is red.' },
    { role: 'assistant', content: [{ type: 'text', text: 'Running tests.' }, { type: 'tool_use', id: 'toolu_1', name: 'run_tests', input: { path: 'test/' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: [{ type: 'text', text: 'Traceback (most recent call last): ...' }] }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'read_fil', input: { path: 'x' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'stale' }] },
  ],
};

describe('anthropic-messages', () => {
  it('reads a Messages request: tools with input_schema as the catalog, a tool_result error, an orphan and an unmatched result', async () => {
    const { result, runs } = await auditTemp({ 'req.json': JSON.stringify(request, null, 2) });
    expect(result.files).toEqual([{ path: 'req.json', format: 'anthropic-messages', records: 7, runs: 1, skipped: [], toolCalls: 2, toolResults: 2 }]);
    expect(runs.map(countRun)).toEqual([{ runId: null, llm: 2, calls: 2, results: 2, errors: 1, orphans: ['toolu_2:read_fil'], unmatched: ['toolu_9:-'], catalog: ['read_file', 'run_tests'] }]);
    const run = runs[0]!;
    expect(run.catalogs[0]!.tools[0]).toEqual({ name: 'run_tests', schema: { type: 'object', properties: { path: { type: 'string' } } }, schemaSha256: null });
    expect(run.results.map((r) => [r.loc.line, r.callId, r.isError])).toEqual([
      [46, 'toolu_1', true],
      [75, 'toolu_9', false],
    ]);
    expect(findingsOf(result, 'orphan-call')).toEqual([{ line: 62, callId: 'toolu_2', tool: 'read_fil', runId: null, message: "call 'toolu_2' to 'read_fil' has no result (the run went on without it, with no llm span after it)" }]);
    expect(findingsOf(result, 'unmatched-result')).toEqual([{ line: 75, callId: 'toolu_9', tool: null, runId: null, message: "result for call id 'toolu_9' has no matching call in this run" }]);
  });

  it('reads a single response message', async () => {
    const response = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }], stop_reason: 'tool_use' };
    const result = await auditFiles({ 'resp.json': JSON.stringify(response) });
    expect(result.files).toEqual([{ path: 'resp.json', format: 'anthropic-messages', records: 2, runs: 1, skipped: [], toolCalls: 1, toolResults: 0 }]);
    expect(findingsOf(result, 'orphan-call').map((f) => f.callId)).toEqual(['toolu_1']);
  });

  it('leaves plain OpenAI message lists to the openai format', async () => {
    const result = await auditFiles({ 'chat.json': JSON.stringify([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]) });
    expect(result.files).toEqual([{ path: 'chat.json', format: 'openai', records: 1, runs: 1, skipped: [], toolCalls: 0, toolResults: 0 }]);
  });
});
