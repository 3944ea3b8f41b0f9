import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { auditFiles, findingsOf, tempTree } from '../../helpers.js';
import { auditWithRuns, factsOf } from './run-facts.js';

const US = 1767225600000 * 1000; // Jaeger times are microseconds
const tag = (key: string, value: string | boolean | number) => ({ key, type: typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'bool' : 'int64', value });
const childOf = (traceID: string, spanID: string) => [{ refType: 'CHILD_OF', traceID, spanID }];

/**
 * A Jaeger UI export of two traces. Trace a…: a chat span asks for j1 'kubectl_get'
 * and j2 'kubectl_logs'; the tool span for j1 fails (otel.status_code ERROR,
 * error=true, an exception log); nothing runs j2. Trace b…: one tool span that succeeds.
 */
function exportJson(): string {
  const A = 'a'.repeat(32);
  const B = 'b'.repeat(32);
  const doc = {
    data: [
      {
        traceID: A,
        spans: [
          { traceID: A, spanID: 'a000000000000001', operationName: 'invoke_agent', references: [], startTime: US, duration: 100_000, tags: [tag('gen_ai.operation.name', 'invoke_agent')], logs: [], processID: 'p1' },
          {
            traceID: A,
            spanID: 'a000000000000002',
            operationName: 'chat',
            references: childOf(A, 'a000000000000001'),
            startTime: US + 1_000,
            duration: 9_000,
            tags: [
              tag('gen_ai.operation.name', 'chat'),
              tag('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'j1', name: 'kubectl_get', arguments: '{"kind":"pod"}' }, { type: 'tool_call', id: 'j2', name: 'kubectl_logs', arguments: '{}' }] }])),
            ],
            logs: [],
            processID: 'p1',
          },
          {
            traceID: A,
            spanID: 'a000000000000003',
            operationName: 'execute_tool kubectl_get',
            references: childOf(A, 'a000000000000001'),
            startTime: US + 11_000,
            duration: 4_000,
            tags: [tag('gen_ai.operation.name', 'execute_tool'), tag('gen_ai.tool.name', 'kubectl_get'), tag('gen_ai.tool.call.id', 'j1'), tag('otel.status_code', 'ERROR'), tag('error', true)],
            logs: [{ timestamp: US + 14_000, fields: [tag('event', 'exception'), tag('exception.type', 'ApiException'), tag('exception.message', 'pods is forbidden')] }],
            processID: 'p1',
          },
        ],
        processes: { p1: { serviceName: 'agent', tags: [] } },
        warnings: null,
      },
      {
        traceID: B,
        spans: [
          { traceID: B, spanID: 'b000000000000001', operationName: 'execute_tool ping', references: [], startTime: US, duration: 1_000, tags: [tag('gen_ai.operation.name', 'execute_tool'), tag('gen_ai.tool.call.id', 'p1')], logs: [], processID: 'p1' },
        ],
        processes: { p1: { serviceName: 'agent', tags: [] } },
        warnings: null,
      },
    ],
    total: 0,
    limit: 0,
    offset: 0,
    errors: null,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

describe('Jaeger JSON export', () => {
  const text = exportJson();
  const lineOf = (id: string) => text.split('\n').findIndex((l) => l.includes(`"spanID": "${id}"`)) + 1;

  it('reads each trace as a run; errors from otel.status_code, error and exception logs; lines of span id keys', async () => {
    const result = await auditFiles({ 'jaeger.json': text });
    expect(result.files).toEqual([{ path: 'jaeger.json', format: 'jaeger-json', records: 6, runs: 2, skipped: [], toolCalls: 3, toolResults: 2 }]);
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
      ['a'.repeat(32), 2, 1],
      ['b'.repeat(32), 1, 1],
    ]);
    expect(findingsOf(result, 'orphan-call')).toEqual([
      { line: lineOf('a000000000000002'), callId: 'j2', tool: 'kubectl_logs', runId: 'a'.repeat(32), message: "call 'j2' to 'kubectl_logs' has no result (the run went on without it, with no llm span after it)" },
    ]);
    // Neither trace records the tools offered; the failed call carries only the exception text.
    expect(result.findings.map((f) => [f.ruleId, f.line, f.runId, f.callId, f.message])).toEqual([
      ['catalog-missing', lineOf('a000000000000002'), 'a'.repeat(32), null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
      ['orphan-call', lineOf('a000000000000002'), 'a'.repeat(32), 'j2', "call 'j2' to 'kubectl_logs' has no result (the run went on without it, with no llm span after it)"],
      ['unstructured-error', lineOf('a000000000000003'), 'a'.repeat(32), 'j1', `error result of 'kubectl_get' has no machine-readable code (body: "pods is forbidden")`],
      ['catalog-missing', lineOf('b000000000000001'), 'b'.repeat(32), null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
    ]);
  });

  it('keeps the failure detail and microsecond times as ms; names a tool from its span name when no attribute does', async () => {
    const root = tempTree({ 'jaeger.json': text });
    const { runs } = await auditWithRuns([join(root, 'jaeger.json')]);
    expect(runs.map(factsOf).map((f) => [f.llm, f.calls, f.results])).toEqual([
      [1, [[lineOf('a000000000000002'), 'j1', 'kubectl_get'], [lineOf('a000000000000002'), 'j2', 'kubectl_logs']], [[lineOf('a000000000000003'), 'j1', 'kubectl_get', true]]],
      [0, [[lineOf('b000000000000001'), 'p1', 'ping']], [[lineOf('b000000000000001'), 'p1', 'ping', false]]],
    ]);
    const failed = runs[0]!.results[0]!;
    expect([failed.ts, failed.content, failed.errorClass, failed.errorCode]).toEqual([1767225600015, 'pods is forbidden', 'ApiException', null]);
  });
});
