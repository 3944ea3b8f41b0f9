import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { catalogHashForms } from '../../../src/audit/catalog/hashes.js';
import { auditFiles, findingsOf, tempTree } from '../../helpers.js';
import { auditWithRuns, factsOf } from './run-facts.js';
import { otlpJsonLine, sdkTracer, toProtobufJson } from './sdk-export.js';

const T = 1767225600000; // 2026-01-01T00:00:00Z
const TRACE = '00000000000000000000000000000001';

const TOOLS = [
  { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { type: 'function', name: 'search_docs', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
  { type: 'function', name: 'send_email', parameters: { type: 'object', properties: { to: { type: 'string' } } } },
  { type: 'function', name: 'lookup_user', parameters: { type: 'object', properties: { id: { type: 'integer' } } } },
];

const toolCall = (id: string, name: string, args: unknown) => ({ type: 'tool_call', id, name, arguments: args });

/**
 * An agent run written by the real OpenTelemetry JS SDK with GenAI semantic
 * conventions, serialized by the real OTLP JSON serializer, one batch per line
 * as the collector's file exporter writes it:
 * - chat #1 offers 4 tools and asks for c1 get_weather, c2 search_docs, c3 send_email;
 * - execute_tool c1 succeeds; execute_tool c2 fails (status ERROR, error.type, exception event);
 *   nothing ever runs c3 (an orphan);
 * - chat #2 asks for c4 lookup_user; its execute_tool span has no call id (paired by order, with a note);
 * - chat #3 carries c1 again as history, plus a response for c9 that nobody asked for.
 */
function agentRun(): string[] {
  const { exporter, start, SpanStatusCode } = sdkTracer();
  const agent = start('invoke_agent weather_bot', T, { 'gen_ai.operation.name': 'invoke_agent' });
  const chat1 = start('chat gpt-4o', T + 10, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.tool.definitions': JSON.stringify(TOOLS),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: [toolCall('c1', 'get_weather', { city: 'Paris' }), toolCall('c2', 'search_docs', { q: 'refunds' }), toolCall('c3', 'send_email', { to: 'ops@example.com' })] },
    ]),
  }, agent);
  chat1.end(T + 100);
  const tool = (name: string, at: number, attrs: Record<string, string>) =>
    start(`execute_tool ${name}`, at, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, ...attrs }, agent);
  const weather = tool('get_weather', T + 110, { 'gen_ai.tool.call.id': 'c1', 'gen_ai.tool.call.arguments': '{"city":"Paris"}', 'gen_ai.tool.call.result': '{"temp_c":21}' });
  const search = tool('search_docs', T + 120, { 'gen_ai.tool.call.id': 'c2', 'gen_ai.tool.call.arguments': '{"q":"refunds"}' });
  weather.end(T + 150);
  search.recordException(new Error('upstream search timed out'), T + 170);
  search.setAttribute('error.type', 'timeout');
  search.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream search timed out' });
  search.end(T + 170);
  const firstBatch = exporter.getFinishedSpans().slice();
  exporter.reset();

  const chat2 = start('chat gpt-4o', T + 200, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [toolCall('c4', 'lookup_user', { id: 42 })] }]),
  }, agent);
  chat2.end(T + 260);
  const lookup = tool('lookup_user', T + 270, { 'gen_ai.tool.call.result': '{"name":"Ada"}' });
  lookup.end(T + 290);
  const chat3 = start('chat gpt-4o', T + 300, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.input.messages': JSON.stringify([
      { role: 'assistant', parts: [toolCall('c1', 'get_weather', { city: 'Paris' })] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: '{"temp_c":21}' }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c9', result: 'stale answer' }] },
    ]),
  }, agent);
  chat3.end(T + 400);
  agent.end(T + 410);
  return [otlpJsonLine(firstBatch), otlpJsonLine(exporter.getFinishedSpans().slice())];
}

const CATALOG_SHA256 = 'e712f25d203f69b89037f2fffdb024e6b195e98fc3a5c511685ab1ba257c87c5';

const NOTE = "tool span '0000000000000006' for 'lookup_user' has no call id: paired by order with call 'c4' of model span '0000000000000005'";

describe('OTLP JSON written by the OpenTelemetry JS SDK (GenAI conventions)', () => {
  const lines = agentRun();

  it('is what the file exporter writes: one resourceSpans object per line, hex ids, integer enums', () => {
    const first = JSON.parse(lines[0]!) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }> };
    const span = first.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect([span.traceId, span.spanId, span.kind, typeof span.startTimeUnixNano]).toEqual([TRACE, '0000000000000002', 1, 'string']);
  });

  for (const [variant, text] of [
    ['OTLP JSON', () => lines.join('')],
    ['protobuf JSON (base64 ids, enum names, int64 strings)', () => lines.map((line) => toProtobufJson(line)).join('')],
  ] as const) {
    it(`${variant}: finds the orphan, the unmatched result, the failed call and says where it paired by order`, async () => {
      // Named as in the collector's file exporter docs (path: ./traces.json): still one batch per line.
      const result = await auditFiles({ 'traces.json': text() });
      expect(result.files).toEqual([{ path: 'traces.json', format: 'otlp-json', records: 12, runs: 1, skipped: [], toolCalls: 4, toolResults: 4 }]);
      // The run's catalog hash is recomputed from chat #1's four tool names (sorted, canonical JSON).
      expect(catalogHashForms(TOOLS.map((t) => t.name)).jcs).toBe(CATALOG_SHA256);
      expect(result.runs).toEqual([{ file: 'traces.json', runId: TRACE, format: 'otlp-json', catalogSha256: CATALOG_SHA256, toolCalls: 4, toolResults: 4 }]);
      expect(findingsOf(result, 'orphan-call')).toEqual([
        { line: 1, callId: 'c3', tool: 'send_email', runId: TRACE, message: "call 'c3' to 'send_email' has no result (the model kept generating afterwards)" },
      ]);
      expect(findingsOf(result, 'unmatched-result')).toEqual([
        { line: 2, callId: 'c9', tool: null, runId: TRACE, message: "result for call id 'c9' has no matching call in this run" },
      ]);
      expect(findingsOf(result, 'ingest-note')).toEqual([{ line: 2, callId: 'c4', tool: 'lookup_user', runId: TRACE, message: NOTE }]);
      // c3 was never run while chat #2 and #3 went on: true.
      expect(findingsOf(result, 'continued-while-outstanding')).toEqual([{ line: 1, callId: 'c3', tool: 'send_email', runId: TRACE, message: "the model produced 2 llm span(s) while call 'c3' to 'send_email' was outstanding (first at line 2) and no result ever arrived" }]);
      expect(result.findings.map((f) => f.ruleId).sort()).toEqual(['continued-while-outstanding', 'ingest-note', 'orphan-call', 'unmatched-result']);
    });
  }

  it('records each call once, the failure from status, error.type and the exception event, times in ms', async () => {
    const root = tempTree({ 'agent.jsonl': lines.join('') });
    const { runs } = await auditWithRuns([join(root, 'agent.jsonl')]);
    expect(runs.map(factsOf)).toEqual([
      {
        runId: TRACE,
        format: 'otlp-json',
        llm: 3,
        calls: [
          [1, 'c1', 'get_weather'],
          [1, 'c2', 'search_docs'],
          [1, 'c3', 'send_email'],
          [2, 'c4', 'lookup_user'],
        ],
        results: [
          [1, 'c1', 'get_weather', false],
          [1, 'c2', 'search_docs', true],
          [2, 'c4', 'lookup_user', false],
          [2, 'c9', null, false],
        ],
        catalogs: [['get_weather', 'search_docs', 'send_email', 'lookup_user']],
      },
    ]);
    const run = runs[0]!;
    expect(run.calls.map((c) => [c.ts, c.args])).toEqual([
      [T + 100, { city: 'Paris' }],
      [T + 100, { q: 'refunds' }],
      [T + 100, { to: 'ops@example.com' }],
      [T + 260, { id: 42 }],
    ]);
    const failed = run.results[1]!;
    expect([failed.ts, failed.content, failed.errorCode, failed.errorClass]).toEqual([T + 170, 'upstream search timed out', 'timeout', 'Error']);
    expect(run.llmSpans.map((s) => [s.ts, s.endTs])).toEqual([[T + 10, T + 100], [T + 200, T + 260], [T + 300, T + 400]]);
  });
});
