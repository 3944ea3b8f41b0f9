import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl, tempTree } from '../../helpers.js';
import { auditWithRuns, factsOf } from './run-facts.js';
import { otlpJsonLine, sdkTracer, toProtobufJson } from './sdk-export.js';

const T = 1767225600000;
const TRACE = '00000000000000000000000000000001';

/** chat asks for c1 'read_file' (offering read_file and write_file), execute_tool runs it. */
function smallRun(): string {
  const { exporter, start } = sdkTracer();
  const agent = start('invoke_agent', T, { 'gen_ai.operation.name': 'invoke_agent' });
  const chat = start('chat', T + 1, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'read_file' }, { type: 'function', name: 'write_file' }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }] }]),
  }, agent);
  chat.end(T + 2);
  const tool = start('execute_tool read_file', T + 3, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_file', 'gen_ai.tool.call.id': 'c1', 'gen_ai.tool.call.result': 'hello' }, agent);
  tool.end(T + 4);
  agent.end(T + 5);
  return otlpJsonLine(exporter.getFinishedSpans().slice());
}

const EXPECTED = { runId: TRACE, format: 'otlp-json', llm: 1, catalogs: [['read_file', 'write_file']] };

async function factsOfFile(name: string, text: string, inputFormat?: string) {
  const root = tempTree({ [name]: text });
  const { result, runs } = await auditWithRuns([join(root, name)], inputFormat);
  return { result, facts: runs.map(factsOf) };
}

/** 1-based line of the first line of `text` containing `needle` (how a reader finds a span). */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('OTLP containers', () => {
  it('a pretty-printed OTLP document: records sit on the line of their span id key', async () => {
    const text = `${JSON.stringify(JSON.parse(smallRun()), null, 2)}\n`;
    const chatLine = lineOf(text, '"spanId": "0000000000000002"');
    const toolLine = lineOf(text, '"spanId": "0000000000000003"');
    expect([chatLine > 1, toolLine > chatLine]).toEqual([true, true]);
    const { result, facts } = await factsOfFile('trace.json', text);
    expect(result.files.map((f) => f.format)).toEqual(['otlp-json']);
    expect(facts).toEqual([{ ...EXPECTED, calls: [[chatLine, 'c1', 'read_file']], results: [[toolLine, 'c1', 'read_file', false]] }]);
  });

  it('protobuf JSON with .proto field names (snake_case), base64 ids, enum names', async () => {
    const text = toProtobufJson(smallRun(), { snakeCase: true });
    expect(text.startsWith('{"resource_spans":[')).toBe(true);
    expect(text).toContain('"span_id":"AAAAAAAAAAI="');
    const { facts } = await factsOfFile('trace.jsonl', text);
    expect(facts).toEqual([{ ...EXPECTED, calls: [[1, 'c1', 'read_file']], results: [[1, 'c1', 'read_file', false]] }]);
  });

  it("Tempo's v2 wrapper and batches with instrumentationLibrarySpans", async () => {
    const request = JSON.parse(smallRun()) as { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope: unknown; spans: unknown[] }> }> };
    const batches = request.resourceSpans.map((rs) => ({ resource: rs.resource, instrumentationLibrarySpans: rs.scopeSpans.map((s) => ({ instrumentationLibrary: s.scope, spans: s.spans })) }));
    for (const text of [JSON.stringify({ trace: request }), JSON.stringify({ batches })]) {
      const { result, facts } = await factsOfFile('tempo.json', text);
      expect(result.files.map((f) => f.format)).toEqual(['otlp-json']);
      expect(facts).toEqual([{ ...EXPECTED, calls: [[1, 'c1', 'read_file']], results: [[1, 'c1', 'read_file', false]] }]);
    }
  });

  it('one batch per line: each record on its batch line; a line that is no container is malformed', async () => {
    const line = smallRun();
    const result = await auditFiles({ 'spans.jsonl': `${line}{"resourceLogs":[]}\n` });
    expect(result.files).toEqual([{ path: 'spans.jsonl', format: 'otlp-json', records: 4, runs: 1, skipped: [{ reason: 'malformed-record', count: 1, firstLine: 2 }], toolCalls: 1, toolResults: 1 }]);
    expect(findingsOf(result, 'malformed-record')).toEqual([
      { line: 2, callId: null, tool: null, runId: null, message: 'line is not an OTLP container (no resourceSpans, scopeSpans or batches array): "{"resourceLogs":[]}"' },
    ]);
  });

  it('detects a pretty-printed document larger than the detection sample from its first key', async () => {
    const one = JSON.parse(smallRun()) as { resourceSpans: unknown[] };
    const many = { resourceSpans: Array.from({ length: 400 }, () => one.resourceSpans).flat() };
    const text = JSON.stringify(many, null, 2);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const { result, facts } = await factsOfFile('big.json', text);
    expect(result.files.map((f) => [f.format, f.runs])).toEqual([['otlp-json', 1]]);
    // The same batch (3 spans) 400 times: each span is read once; the note sits on the first repeat,
    // the chat span (the first span of each batch) of the second copy.
    const secondChat = text.split('\n').flatMap((l, i) => (l.includes('"spanId": "0000000000000002"') ? [i + 1] : []))[1];
    expect(facts.map((f) => [f.llm, f.calls.length, f.results.length])).toEqual([[1, 1, 1]]);
    expect(findingsOf(result, 'ingest-note').map((f) => [f.line, f.message])).toEqual([
      [secondChat, `1197 span(s) of trace '${TRACE}' repeat a span id already read (a batch exported twice?); each span was read once`],
    ]);
  });

  it('leaves native JSONL to the native reader, and can be forced with --input-format', async () => {
    const native = await auditFiles({ 'n.jsonl': jsonl({ kind: 'tool_call', call_id: 'x', tool: 't' }, { kind: 'tool_result', call_id: 'x', tool: 't' }) });
    expect(native.files.map((f) => f.format)).toEqual(['native-jsonl']);
    const { result } = await factsOfFile('odd.txt', `\n\n${smallRun()}`, 'otlp-json');
    expect(result.files.map((f) => [f.format, f.records])).toEqual([['otlp-json', 4]]);
  });

  it('a line longer than max-line-bytes: a one-line document is still read whole, JSON lines report that line', async () => {
    const line = smallRun();
    const limits = { limits: { 'max-line-bytes': 1000 } };
    expect(line.length).toBeGreaterThan(1000);
    const single = await auditFiles({ 'tempo.json': line }, limits);
    expect(single.files).toEqual([{ path: 'tempo.json', format: 'otlp-json', records: 4, runs: 1, skipped: [], toolCalls: 1, toolResults: 1 }]);
    const many = await auditFiles({ 'spans.jsonl': line + line }, limits);
    expect(many.files).toEqual([{ path: 'spans.jsonl', format: 'otlp-json', records: 0, runs: 0, skipped: [{ reason: 'malformed-record', count: 2, firstLine: 1 }], toolCalls: 0, toolResults: 0 }]);
    expect(findingsOf(many, 'malformed-record').map((f) => f.line)).toEqual([1, 2]);
  });

  it('spans without a traceId (some Tempo single-trace responses) are one run for the file; non-hex span ids kept', async () => {
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const span = (spanId: string, parentSpanId: string | undefined, startNs: string, endNs: string, attributes: unknown[], code = 'STATUS_CODE_UNSET') => ({
      spanId, ...(parentSpanId ? { parentSpanId } : {}), name: spanId, kind: 'SPAN_KIND_INTERNAL', startTimeUnixNano: startNs, endTimeUnixNano: endNs, attributes, status: { code },
    });
    const doc = {
      batches: [{ resource: { attributes: [attr('service.name', 'svc')] }, scopeSpans: [{ spans: [
        span('agent', undefined, '1000000000', '5000000000', [attr('gen_ai.operation.name', 'invoke_agent')]),
        span('llm', 'agent', '1100000000', '1900000000', [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'k1', name: 'deploy', arguments: {} }] }]))]),
        span('tool', 'agent', '2000000000', '3000000000', [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'deploy'), attr('gen_ai.tool.call.id', 'k1')], 'STATUS_CODE_ERROR'),
      ] }] }],
    };
    const { result, facts } = await factsOfFile('tempo.json', `${JSON.stringify(doc)}\n`);
    expect(facts).toEqual([{ runId: null, format: 'otlp-json', llm: 1, calls: [[1, 'k1', 'deploy']], results: [[1, 'k1', 'deploy', true]], catalogs: [] }]);
    // No tool list on the model span, and the failed tool span carries no error body: both true.
    expect(result.findings.map((f) => [f.ruleId, f.line, f.runId, f.callId, f.message])).toEqual([
      ['catalog-missing', 1, null, null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['unstructured-error', 1, null, 'k1', "error result of 'deploy' has no machine-readable code (empty body)"],
    ]);
  });

  it('a parent cycle (each span the parent of the other) does not hang', async () => {
    const chat = (spanId: string, parentSpanId: string) => ({
      traceId: TRACE, spanId, parentSpanId, name: 'chat', kind: 3, startTimeUnixNano: '1000', endTimeUnixNano: '2000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }],
    });
    const line = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [chat('000000000000000a', '000000000000000b'), chat('000000000000000b', '000000000000000a')] }] }] });
    const { facts } = await factsOfFile('cycle.jsonl', `${line}\n`);
    // Each is the other's ancestor, so each is nested in a model span: no llm record, and no endless walk.
    expect(facts).toEqual([]);
  });
});
