import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { findingsOf, tempTree } from '../../helpers.js';
import { auditWithRuns, factsOf } from './run-facts.js';
import { otlpJsonLine, sdkTracer } from './sdk-export.js';

const T = 1767225600000;
const TRACE = '00000000000000000000000000000001';

/** Each scenario builds spans with a real SDK tracer and audits the OTLP JSON line the serializer writes. */
async function audit(build: (t: ReturnType<typeof sdkTracer>) => void) {
  const tracer = sdkTracer();
  build(tracer);
  const spans: ReadableSpan[] = tracer.exporter.getFinishedSpans().slice();
  const root = tempTree({ 'trace.jsonl': otlpJsonLine(spans) });
  const { result, runs } = await auditWithRuns([join(root, 'trace.jsonl')]);
  return { result, runs, facts: runs.map(factsOf) };
}

const schema = (props: string[]) => ({ type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])) });

describe('OpenInference attributes', () => {
  it('reads llm.tools, flattened output tool calls, TOOL spans (with and without a call id) and tool messages', async () => {
    const { result, runs, facts } = await audit(({ start, SpanStatusCode }) => {
      const chain = start('agent', T, { 'openinference.span.kind': 'CHAIN' });
      const llm = start('ChatOpenAI', T + 1, {
        'openinference.span.kind': 'LLM',
        'llm.tools.0.tool.json_schema': JSON.stringify({ type: 'function', function: { name: 'get_weather', parameters: schema(['city']) } }),
        'llm.tools.1.tool.json_schema': JSON.stringify({ type: 'function', function: { name: 'get_time', parameters: schema(['tz']) } }),
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'call_1',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'get_weather',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"city":"Oslo"}',
        'llm.output_messages.0.message.tool_calls.1.tool_call.id': 'call_2',
        'llm.output_messages.0.message.tool_calls.1.tool_call.function.name': 'get_time',
        'llm.output_messages.0.message.tool_calls.1.tool_call.function.arguments': '{"tz":"CET"}',
      }, chain);
      llm.end(T + 10);
      const weather = start('get_weather', T + 11, { 'openinference.span.kind': 'TOOL', 'tool.name': 'get_weather', 'input.value': '{"city":"Oslo"}', 'output.value': '4°C, rain' }, chain);
      weather.end(T + 12);
      const time = start('get_time', T + 13, { 'openinference.span.kind': 'TOOL', 'tool.name': 'get_time', 'tool_call.id': 'call_2', 'input.value': '{"tz":"CET"}' }, chain);
      time.recordException({ name: 'ZoneError', message: 'unknown zone CET' }, T + 14);
      time.setStatus({ code: SpanStatusCode.ERROR });
      time.end(T + 14);
      const llm2 = start('ChatOpenAI', T + 20, {
        'openinference.span.kind': 'LLM',
        'llm.input_messages.0.message.role': 'tool',
        'llm.input_messages.0.message.tool_call_id': 'call_1',
        'llm.input_messages.0.message.content': '4°C, rain',
      }, chain);
      llm2.end(T + 30);
      chain.end(T + 31);
    });
    expect(facts).toEqual([
      {
        runId: TRACE,
        format: 'otlp-json',
        llm: 2,
        calls: [[1, 'call_1', 'get_weather'], [1, 'call_2', 'get_time']],
        results: [[1, 'call_1', 'get_weather', false], [1, 'call_2', 'get_time', true]],
        catalogs: [['get_weather', 'get_time']],
      },
    ]);
    expect(runs[0]!.results.map((r) => [r.content, r.errorClass])).toEqual([['4°C, rain', null], ['unknown zone CET', 'ZoneError']]);
    expect(findingsOf(result, 'ingest-note').map((f) => [f.callId, f.message])).toEqual([
      ['call_1', "tool span '0000000000000003' for 'get_weather' has no call id: paired by order with call 'call_1' of model span '0000000000000002'"],
    ]);
    // The failed get_time span carries only the exception text: no machine-readable code (true).
    expect(result.findings.map((f) => [f.ruleId, f.callId, f.message])).toEqual([
      ['ingest-note', 'call_1', "tool span '0000000000000003' for 'get_weather' has no call id: paired by order with call 'call_1' of model span '0000000000000002'"],
      ['unstructured-error', 'call_2', `error result of 'get_time' has no machine-readable code (body: "unknown zone CET")`],
    ]);
  });
});

describe('Vercel AI SDK attributes', () => {
  it('reads ai.prompt.tools, ai.response.toolCalls, ai.toolCall spans and tool-result history; a call never run is an orphan', async () => {
    const { result, facts } = await audit(({ start }) => {
      const outer = start('ai.generateText', T, { 'ai.operationId': 'ai.generateText' });
      const step1 = start('ai.generateText.doGenerate', T + 1, {
        'ai.operationId': 'ai.generateText.doGenerate',
        'ai.prompt.tools': [JSON.stringify({ type: 'function', name: 'search', parameters: schema(['q']) }), JSON.stringify({ type: 'function', name: 'fetch', inputSchema: schema(['url']) })],
        'ai.response.toolCalls': JSON.stringify([{ toolCallType: 'function', toolCallId: 't1', toolName: 'search', args: '{"q":"otel"}' }]),
      }, outer);
      step1.end(T + 5);
      const call = start('ai.toolCall', T + 6, { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'search', 'ai.toolCall.id': 't1', 'ai.toolCall.args': '{"q":"otel"}', 'ai.toolCall.result': '["a","b"]' }, outer);
      call.end(T + 7);
      const step2 = start('ai.generateText.doGenerate', T + 8, {
        'ai.operationId': 'ai.generateText.doGenerate',
        'ai.prompt.messages': JSON.stringify([
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'search', args: { q: 'otel' } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'search', result: ['a', 'b'] }] },
        ]),
        'ai.response.toolCalls': JSON.stringify([{ toolCallType: 'function', toolCallId: 't2', toolName: 'fetch', args: '{"url":"https://example.com"}' }]),
      }, outer);
      step2.end(T + 12);
      outer.end(T + 13);
    });
    expect(facts).toEqual([
      { runId: TRACE, format: 'otlp-json', llm: 2, calls: [[1, 't1', 'search'], [1, 't2', 'fetch']], results: [[1, 't1', 'search', false]], catalogs: [['search', 'fetch']] },
    ]);
    expect(findingsOf(result, 'orphan-call').map((f) => [f.callId, f.tool])).toEqual([['t2', 'fetch']]);
  });
});

describe('Google ADK attributes', () => {
  it('reads the catalog and calls from llm_request/llm_response and an MCP isError result from tool_response', async () => {
    const { result, runs, facts } = await audit(({ start }) => {
      const agent = start('invoke_agent', T, { 'gen_ai.operation.name': 'invoke_agent' });
      const llm = start('call_llm', T + 1, {
        'gcp.vertex.agent.llm_request': JSON.stringify({ model: 'm', config: { tools: [{ function_declarations: [{ name: 'lookup', parameters: schema(['key']) }] }] }, contents: [] }),
        'gcp.vertex.agent.llm_response': JSON.stringify({ content: { role: 'model', parts: [{ function_call: { id: 'adk-1', name: 'lookup', args: { key: 'k' } } }] } }),
      }, agent);
      const tool = start('execute_tool lookup', T + 5, {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.call.id': 'adk-1',
        'gcp.vertex.agent.llm_request': '{}',
        'gcp.vertex.agent.tool_call_args': '{"key":"k"}',
        'gcp.vertex.agent.tool_response': JSON.stringify({ content: [{ type: 'text', text: 'no such key' }], isError: true }),
      }, llm);
      tool.end(T + 6);
      llm.end(T + 7);
      agent.end(T + 8);
    });
    expect(facts).toEqual([
      { runId: TRACE, format: 'otlp-json', llm: 1, calls: [[1, 'adk-1', 'lookup']], results: [[1, 'adk-1', 'lookup', true]], catalogs: [['lookup']] },
    ]);
    expect(runs[0]!.calls[0]!.args).toEqual({ key: 'k' });
    // An MCP isError result with only text: no machine-readable code (true).
    expect(result.findings.map((f) => [f.ruleId, f.line, f.callId, f.message])).toEqual([
      ['unstructured-error', 1, 'adk-1', `error result of 'lookup' has no machine-readable code (body: "{"content":[{"type":"text","text":"no such key"}],"isError":true}")`],
    ]);
  });
});

describe('OpenLLMetry flattened attributes', () => {
  it('reads llm.request.functions, completion tool calls and tool prompts; the call never answered is an orphan', async () => {
    const { result, facts } = await audit(({ start }) => {
      const workflow = start('workflow', T, {});
      const chat = start('openai.chat', T, {
        'llm.request.type': 'chat',
        'llm.request.functions.0.name': 'add',
        'llm.request.functions.0.parameters': JSON.stringify(schema(['a', 'b'])),
        'llm.request.functions.1.name': 'mul',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.tool_calls.0.id': 'o1',
        'gen_ai.completion.0.tool_calls.0.name': 'add',
        'gen_ai.completion.0.tool_calls.0.arguments': '{"a":1,"b":2}',
        'gen_ai.completion.0.tool_calls.1.id': 'o2',
        'gen_ai.completion.0.tool_calls.1.name': 'mul',
        'gen_ai.completion.0.tool_calls.1.arguments': '{"a":3,"b":4}',
      }, workflow);
      chat.end(T + 5);
      const next = start('openai.chat', T + 10, {
        'llm.request.type': 'chat',
        'gen_ai.prompt.0.role': 'assistant',
        'gen_ai.prompt.0.tool_calls.0.id': 'o1',
        'gen_ai.prompt.0.tool_calls.0.name': 'add',
        'gen_ai.prompt.1.role': 'tool',
        'gen_ai.prompt.1.tool_call_id': 'o1',
        'gen_ai.prompt.1.content': '3',
      }, workflow);
      next.end(T + 15);
      workflow.end(T + 16);
    });
    expect(facts.map((f) => [f.llm, f.calls, f.results, f.catalogs])).toEqual([
      [2, [[1, 'o1', 'add'], [1, 'o2', 'mul']], [[1, 'o1', null, false]], [['add', 'mul']]],
    ]);
    // (The cause in the message is the orphan-call rule's, which compares lines; here every span is on line 1.)
    expect(findingsOf(result, 'orphan-call').map((f) => [f.line, f.callId, f.tool])).toEqual([[1, 'o2', 'mul']]);
  });
});

describe('tool spans the trace cannot tie to a model request', () => {
  it('an id-less tool span with no model call to pair with: a note, and its own call and result', async () => {
    const { result, facts } = await audit(({ start }) => {
      const tool = start('execute_tool cleanup', T, { 'gen_ai.operation.name': 'execute_tool' });
      tool.end(T + 1);
    });
    expect(facts.map((f) => [f.calls, f.results])).toEqual([[[[1, null, 'cleanup']], [[1, null, 'cleanup', false]]]]);
    expect(findingsOf(result, 'ingest-note').map((f) => f.message)).toEqual([
      "tool span '0000000000000001' for 'cleanup' has no call id and no model span's tool call to pair it with by order; its call and result stay without an id",
    ]);
    expect(findingsOf(result, 'orphan-call')).toEqual([]);
  });

  it('an id-less tool span and an id-less model call: paired by order, one call, with a note', async () => {
    const { result, facts } = await audit(({ start }) => {
      const workflow = start('workflow', T, {});
      const chat = start('openai.chat', T + 1, { 'llm.request.type': 'chat', 'gen_ai.completion.0.tool_calls.0.name': 'add', 'gen_ai.completion.0.tool_calls.0.arguments': '{"a":1}' }, workflow);
      chat.end(T + 2);
      const tool = start('add.tool', T + 3, { 'traceloop.span.kind': 'tool', 'traceloop.entity.name': 'add', 'traceloop.entity.output': '2' }, workflow);
      tool.end(T + 4);
      workflow.end(T + 5);
    });
    expect(facts.map((f) => [f.llm, f.calls, f.results])).toEqual([[1, [[1, null, 'add']], [[1, null, 'add', false]]]]);
    expect(findingsOf(result, 'ingest-note').map((f) => f.message)).toEqual([
      "tool span '0000000000000003' for 'add' has no call id: paired by order with the model's call of 'add' (which has no call id either) of model span '0000000000000002'",
    ]);
    // No tool list on the model span (true).
    expect(result.findings.map((f) => [f.ruleId, f.message])).toEqual([
      ['catalog-missing', 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['ingest-note', "tool span '0000000000000003' for 'add' has no call id: paired by order with the model's call of 'add' (which has no call id either) of model span '0000000000000002'"],
    ]);
  });

  it('two executions of one call id stay two calls and two results', async () => {
    const { facts } = await audit(({ start }) => {
      const agent = start('agent', T, {});
      for (const at of [T, T + 10]) start('execute_tool retry_me', at, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.id': 'same' }, agent).end(at + 1);
      agent.end(T + 20);
    });
    expect(facts.map((f) => [f.calls.length, f.results.length])).toEqual([[2, 2]]);
  });
});

describe('record order of a model request', () => {
  it("puts the calls and results a request's input carries before its llm record, and its output calls after", async () => {
    // Only the second request is recorded: its input holds call h1 and h1's result (they happened
    // before it), and it asks for o1. Rules read record order as time order.
    const { result, runs } = await audit(({ start }) => {
      const step = start('ai.generateText.doGenerate', T, {
        'ai.operationId': 'ai.generateText.doGenerate',
        'ai.prompt.tools': [JSON.stringify({ type: 'function', name: 'search', parameters: schema(['q']) })],
        'ai.prompt.messages': JSON.stringify([
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'h1', toolName: 'search', args: { q: 'a' } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'h1', toolName: 'search', result: 'Traceback (most recent call last):\n  File "s.py", line 3, in run\n    go()\nValueError: bad' }] },
        ]),
        'ai.response.toolCalls': JSON.stringify([{ toolCallType: 'function', toolCallId: 'o1', toolName: 'search', args: '{"q":"b"}' }]),
      });
      step.end(T + 5);
    });
    expect(runs[0]!.records.map((r) => [r.kind, 'callId' in r ? r.callId : null])).toEqual([
      ['tool_call', 'h1'],
      ['tool_result', 'h1'],
      ['catalog', null],
      ['llm', null],
      ['tool_call', 'o1'],
    ]);
    // All on one line: the rules compare record order, so the request after the traceback re-reads it,
    // and o1 is an orphan that nothing followed.
    expect(findingsOf(result, 'stack-trace-in-result').map((f) => [f.callId, f.message])).toEqual([
      ['h1', "Python traceback (1 frame, ~33 tokens) in the result of 'search'; re-read on 1 later llm turn: ~33 tokens"],
    ]);
    expect(findingsOf(result, 'orphan-call').map((f) => [f.callId, f.message])).toEqual([
      ['o1', "call 'o1' to 'search' has no result (nothing followed it in the run)"],
    ]);
  });

  it("puts a nested model span's input and tools before the llm record of the request it belongs to", async () => {
    // call_llm wraps openai.chat (one request); only the inner span records the tools and the
    // history (call h1 and its result), and it starts after the outer llm record was placed.
    const { runs } = await audit(({ start }) => {
      const outer = start('call_llm', T, { 'llm.request.type': 'chat' });
      const inner = start('openai.chat', T + 1, {
        'llm.request.type': 'chat',
        'llm.request.functions.0.name': 'search',
        'gen_ai.prompt.0.role': 'assistant',
        'gen_ai.prompt.0.tool_calls.0.id': 'h1',
        'gen_ai.prompt.0.tool_calls.0.name': 'search',
        'gen_ai.prompt.0.tool_calls.0.arguments': '{"q":"a"}',
        'gen_ai.prompt.1.role': 'tool',
        'gen_ai.prompt.1.tool_call_id': 'h1',
        'gen_ai.prompt.1.content': 'found',
        'gen_ai.completion.0.tool_calls.0.id': 'o1',
        'gen_ai.completion.0.tool_calls.0.name': 'search',
        'gen_ai.completion.0.tool_calls.0.arguments': '{"q":"b"}',
      }, outer);
      inner.end(T + 4);
      outer.end(T + 5);
    });
    expect(runs[0]!.records.map((r) => [r.kind, 'callId' in r ? r.callId : null, r.spanId])).toEqual([
      ['tool_call', 'h1', '0000000000000002'],
      ['tool_result', 'h1', '0000000000000002'],
      ['catalog', null, '0000000000000002'],
      ['llm', null, '0000000000000001'],
      ['tool_call', 'o1', '0000000000000002'],
    ]);
  });
});
