import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'langfuse';

describeCorpus('langfuse: corpus exports', corpusFilesUnder(dir), () => {
  it('reads every export as one run per trace with exact counts', async () => {
    const names = ['langgraph-python', 'llamaindex', 'microsoft-agent', 'pydantic-ai-tools', 'vercel-aisdk'];
    const { result, runs } = await auditCorpus(names.map((n) => `${dir}/${n}.trace.json`));
    expect(result.files.map((f) => [f.format, f.runs])).toEqual(names.map(() => ['langfuse', 1]));
    expect(runs.map(countRun)).toEqual([
      { runId: 'e1fde3efec57ce8a69bafd3fb928a7eb', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['Web-Search'] },
      { runId: '12ea412956f99347b0503c1144acd0ec', llm: 1, calls: 0, results: 0, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: '8e419d3288419b5d944270505640e183', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['get_weather'] },
      {
        runId: '7a38edd8123db47ad8dcb8aa4c5e3926',
        llm: 4,
        calls: 4,
        results: 4,
        errors: 0,
        orphans: [],
        unmatched: [],
        catalog: ['final_result', 'get_car_joke_suggestion', 'get_dad_joke_suggestion', 'get_one_liner_suggestion', 'get_pun_suggestion', 'get_tree_joke_suggestion'],
      },
      // ai.generateText wraps its one ai.generateText.doGenerate: one model request, not two.
      { runId: 'df41e597d0a85e0d7a6ae8ebfaa70aa0', llm: 1, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['getWeather'] },
    ]);
    // pydantic-ai offered six tools and called four: two unused (true).
    const unused = (tool: string) => ['unused-tool', 1317, '7a38edd8123db47ad8dcb8aa4c5e3926', null, `tool '${tool}' is in the catalog but the run never called it (4 calls to other tools)`];
    // llamaindex.trace.json has one model request and no tool call ("tool" appears only in its prose): true.
    const none = ['ingest-note', 0, null, null, "the file holds no tool calls ('langfuse': no tool call or result read, and no tool-shaped content)"];
    expect(findingList(result)).toEqual([none, unused('get_car_joke_suggestion'), unused('get_tree_joke_suggestion')]);
  });

  it('takes the call from the generation and the result from the TOOL observation, at their lines', async () => {
    const { runs } = await auditCorpus([`${dir}/microsoft-agent.trace.json`]);
    const run = runs[0]!;
    expect(run.calls.map((c) => [c.loc.line, c.callId, c.tool, c.args])).toEqual([[351, 'call_CwaJHuXTm9dmHFQPlVbqyzJ0', 'get_weather', { location: 'Tokyo, Japan' }]]);
    expect(run.results.map((r) => [r.loc.line, r.callId, r.content])).toEqual([[457, 'call_CwaJHuXTm9dmHFQPlVbqyzJ0', 'The weather in Tokyo, Japan is stormy with a high of 23°C.']]);
    expect(run.catalogs[0]!.tools[0]!.schema).toMatchObject({ required: ['location'] });
  });

  it("puts a nested generation's tools before the llm record of the turn it belongs to", async () => {
    // ai.generateText (line 245) wraps ai.generateText.doGenerate (line 305), which holds the tool
    // definitions: they were offered with that one request, so they come before its llm record.
    const { runs } = await auditCorpus([`${dir}/vercel-aisdk.trace.json`]);
    expect(runs[0]!.records.map((r) => [r.kind, r.loc.line])).toEqual([
      ['catalog', 305],
      ['llm', 245],
      ['tool_call', 245],
      ['tool_result', 365],
    ]);
  });

  it('finds the pydantic-ai output tool result only in the agent span messages', async () => {
    const { runs } = await auditCorpus([`${dir}/pydantic-ai-tools.trace.json`]);
    const final = runs[0]!.results.find((r) => r.tool === 'final_result')!;
    expect([final.loc.line, final.content]).toEqual([1197, 'Final result processed.']);
  });
});

const obs = (o: Record<string, unknown>) => ({ traceId: 't1', parentObservationId: null, level: 'DEFAULT', ...o });

describe('langfuse: hand-made shapes', () => {
  it('pairs an id-less failing TOOL observation by order with a note, and flags a call nobody ran', async () => {
    const doc = {
      trace: { id: 't1' },
      observations: [
        obs({
          id: 'g1',
          type: 'GENERATION',
          startTime: '2025-01-01T00:00:00Z',
          endTime: '2025-01-01T00:00:01Z',
          input: [{ role: 'user', content: 'hi' }],
          output: { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }, { id: 'c2', type: 'function', function: { name: 'fetch', arguments: '{}' } }] },
          metadata: { attributes: { 'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', function: { name: 'search', parameters: { type: 'object' } } }]) } },
        }),
        obs({ id: 'tool1', type: 'TOOL', name: 'search', startTime: '2025-01-01T00:00:02Z', endTime: '2025-01-01T00:00:03Z', level: 'ERROR', statusMessage: 'upstream 503', input: { q: 'x' }, output: null, metadata: { attributes: { 'error.type': 'HTTPError' } } }),
      ],
    };
    const { result, runs } = await auditTemp({ 'lf.json': JSON.stringify(doc, null, 2) });
    expect(runs[0]!.results.map((r) => [r.callId, r.isError, r.errorClass, r.content, r.ts])).toEqual([['c1', true, 'HTTPError', 'upstream 503', Date.parse('2025-01-01T00:00:03Z')]]);
    expect(result.files).toEqual([{ path: 'lf.json', format: 'langfuse', records: 5, runs: 1, skipped: [], toolCalls: 2, toolResults: 1 }]);
    expect(findingsOf(result, 'ingest-note')).toEqual([
      { line: 47, callId: 'c1', tool: 'search', runId: 't1', message: "tool observation 'search' has no call id; paired by order with the model's call 'c1'" },
    ]);
    expect(findingsOf(result, 'orphan-call')).toEqual([
      { line: 6, callId: 'c2', tool: 'fetch', runId: 't1', message: "call 'c2' to 'fetch' has no result (the run went on without it, with no llm span after it)" },
    ]);
    expect(findingsOf(result, 'unmatched-result')).toEqual([]);
  });

  it('takes the call id and status of a LangChain TOOL observation from its ToolMessage output', async () => {
    const doc = {
      trace: { id: 't2' },
      observations: [
        obs({ id: 'g', type: 'GENERATION', startTime: '2025-01-01T00:00:00Z', output: { role: 'assistant', tool_calls: [{ id: 'lc1', type: 'function', function: { name: 'Web-Search', arguments: '{}' } }] } }),
        obs({ id: 't', type: 'TOOL', name: 'Web-Search', startTime: '2025-01-01T00:00:01Z', input: "{'query': 'x'}", output: { content: 'Traceback ...', type: 'tool', name: 'Web-Search', tool_call_id: 'lc1', status: 'error' } }),
      ],
    };
    const { result, runs } = await auditTemp({ 'lc.json': JSON.stringify(doc) });
    expect(runs.map(countRun)).toEqual([{ runId: 't2', llm: 1, calls: 1, results: 1, errors: 1, orphans: [], unmatched: [], catalog: [] }]);
    expect(runs[0]!.results.map((r) => [r.callId, r.tool, r.content])).toEqual([['lc1', 'Web-Search', 'Traceback ...']]);
    // No tool definitions recorded, and the error ToolMessage is plain text: both true.
    expect(findingList(result)).toEqual([
      ['catalog-missing', 1, 't2', null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['unstructured-error', 1, 't2', 'lc1', `error result of 'Web-Search' has no machine-readable code (body: "Traceback ...")`],
    ]);
  });

  it('reads OpenAI Agents SDK traces (OpenInference): Responses items as JSON text, a Response as output, flattened tool schemas', async () => {
    const schema = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
    const attrs = (extra: Record<string, unknown>) => JSON.stringify({ attributes: { 'openinference.span.kind': 'LLM', 'llm.tools.0.tool.json_schema': JSON.stringify(schema), ...extra } });
    const fc = { arguments: '{"city":"Tokyo"}', call_id: 'call_K', name: 'get_weather', type: 'function_call', id: 'fc_1', status: 'completed' };
    const doc = {
      trace: { id: 'oa' },
      observations: [
        obs({ id: 'g1', type: 'GENERATION', startTime: '2025-09-30T09:03:59.963Z', endTime: '2025-09-30T09:04:00.999Z', input: JSON.stringify([{ role: 'user', content: 'weather?' }]), output: JSON.stringify({ object: 'response', output: [fc], tools: [{ type: 'function', name: 'get_weather', parameters: {} }] }), metadata: attrs({}) }),
        obs({ id: 't1', type: 'TOOL', name: 'get_weather', startTime: '2025-09-30T09:04:01.000Z', endTime: '2025-09-30T09:04:01.000Z', input: '{"city":"Tokyo"}', output: 'The weather in Tokyo is sunny.', metadata: JSON.stringify({ attributes: { 'tool.name': 'get_weather', 'openinference.span.kind': 'TOOL' } }) }),
        obs({ id: 'g2', type: 'GENERATION', startTime: '2025-09-30T09:04:01.001Z', endTime: '2025-09-30T09:04:02.151Z', input: JSON.stringify([{ role: 'user', content: 'weather?' }, fc, { call_id: 'call_K', output: 'The weather in Tokyo is sunny.', type: 'function_call_output' }]), output: JSON.stringify({ object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.' }] }] }), metadata: attrs({}) }),
      ],
    };
    const { result, runs } = await auditTemp({ 'oa.json': JSON.stringify(doc) });
    expect(runs.map(countRun)).toEqual([{ runId: 'oa', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['get_weather'] }]);
    expect(runs[0]!.catalogs[0]!.tools[0]!.schema).toEqual(schema.function.parameters);
    expect(findingList(result)).toEqual([['ingest-note', 1, 'oa', 'call_K', "tool observation 'get_weather' has no call id; paired by order with the model's call 'call_K'"]]);
  });

  it("reads calls from Langfuse's own toolCalls/toolCallNames and pairs id-less TOOL observations in order", async () => {
    const gen = (id: string, start: string, callId: string, city: string) =>
      obs({ id, type: 'GENERATION', startTime: start, output: null, toolCalls: [JSON.stringify({ id: callId, arguments: JSON.stringify({ city }), type: 'tool_use', index: 0 })], toolCallNames: ['mcp__weather__get_weather'] });
    const tool = (id: string, start: string, city: string) => obs({ id, type: 'TOOL', name: 'mcp__weather__get_weather', startTime: start, input: JSON.stringify({ input: { city } }), output: JSON.stringify({ content: [{ type: 'text', text: `Weather in ${city}` }] }) });
    const doc = {
      trace: { id: 'ca' },
      observations: [gen('g1', '2025-12-22T10:46:18.725Z', 'toolu_B', 'Berlin'), gen('g2', '2025-12-22T10:46:18.977Z', 'toolu_N', 'New York'), tool('t1', '2025-12-22T10:46:19.027Z', 'Berlin'), tool('t2', '2025-12-22T10:46:19.093Z', 'New York')],
    };
    const { result, runs } = await auditTemp({ 'ca.json': JSON.stringify(doc) });
    expect(runs.map(countRun)).toEqual([{ runId: 'ca', llm: 2, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: [] }]);
    expect(runs[0]!.calls.map((c) => [c.callId, c.args])).toEqual([
      ['toolu_B', { city: 'Berlin' }],
      ['toolu_N', { city: 'New York' }],
    ]);
    // No tool definitions recorded (true).
    expect(result.findings.map((f) => [f.ruleId, f.callId])).toEqual([
      ['catalog-missing', null],
      ['ingest-note', 'toolu_B'],
      ['ingest-note', 'toolu_N'],
    ]);
  });

  it('reads a list of exports as one run per trace', async () => {
    const one = (id: string, callId: string) => ({
      trace: { id },
      observations: [obs({ id: `g-${id}`, traceId: id, type: 'GENERATION', startTime: '2025-01-01T00:00:00Z', output: [{ role: 'assistant', parts: [{ type: 'tool_call', id: callId, name: 'f', arguments: '{}' }] }] })],
    });
    const { result, runs } = await auditTemp({ 'many.json': JSON.stringify([one('a', 'x'), one('b', 'x')], null, 2) });
    expect(result.files).toEqual([{ path: 'many.json', format: 'langfuse', records: 4, runs: 2, skipped: [], toolCalls: 2, toolResults: 0 }]);
    expect(runs.map((r) => [r.runId, r.calls.map((c) => [c.loc.line, c.callId])])).toEqual([
      ['a', [[7, 'x']]],
      ['b', [[35, 'x']]],
    ]);
  });

  it('is not chosen for a JSON object without trace and observations', async () => {
    const result = await auditFiles({ 'x.json': JSON.stringify({ trace: { id: 't' } }) });
    expect(result.files[0]!.format).toBe('unknown');
    expect(findingsOf(result, 'unknown-format').map((f) => f.message)).toEqual([
      'fits no supported trace format (a JSON object with keys "trace"); closest is \'langfuse\', but it has no "observations" list beside "trace"',
    ]);
  });
});
