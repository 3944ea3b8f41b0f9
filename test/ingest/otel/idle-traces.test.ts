import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
const line = (spans: unknown[]) => `${JSON.stringify({ resourceSpans: [{ resource: {}, scopeSpans: [{ scope: { name: 't' }, spans }] }] })}\n`;
const chat = (trace: number, span: number) => ({
  traceId: hex(trace, 32),
  spanId: hex(span, 16),
  name: 'chat m',
  startTimeUnixNano: String(1_780_000_000_000_000_000n + BigInt(span) * 1_000_000n),
  endTimeUnixNano: String(1_780_000_000_000_000_000n + BigInt(span) * 1_000_000n + 500_000n),
  attributes: [attr('gen_ai.operation.name', 'chat')],
});
const tool = (trace: number, span: number) => ({
  ...chat(trace, span),
  name: 'execute_tool ls',
  attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'ls'), attr('gen_ai.tool.call.id', `c${span}`), attr('gen_ai.tool.call.result', 'ok')],
});

/**
 * Trace 1 has a model span on line 1 and another on line 13; trace 2 fills lines 2-12
 * with 1,100 tool spans (100 a line). Idle traces are looked for every 1,024 spans.
 */
function file(): string {
  let text = line([chat(1, 1)]);
  for (let l = 0; l < 11; l += 1) text += line(Array.from({ length: 100 }, (_, i) => tool(2, 2 + l * 100 + i)));
  return text + line([chat(1, 5000)]);
}

describe('OTLP JSONL: a trace idle for limits.run-idle-records spans is released', () => {
  it('audits the idle trace when it goes idle, and a trace that comes back is a second part, reported as run-split', async () => {
    const result = await auditFiles({ 't.jsonl': file() }, { limits: { 'run-idle-records': 500 } });
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
      [hex(1, 32), 0, 0],
      [hex(2, 32), 1100, 1100],
      [hex(1, 32), 0, 0],
    ]);
    // Records before the comeback: trace 1's llm record, then trace 2's 1,100 calls and 1,100 results (2,201 after the first part closed).
    expect(findingsOf(result, 'run-split')).toEqual([
      { line: 13, runId: hex(1, 32), callId: null, tool: null, message: 'run resumed after 2201 records of other runs; it was audited in parts (raise limits.run-idle-records, or 0 to keep runs open)' },
    ]);
  });

  it('keeps every trace whole with 0 (and with the default, 20,000 spans)', async () => {
    for (const limits of [{ 'run-idle-records': 0 }, {}]) {
      const result = await auditFiles({ 't.jsonl': file() }, { limits });
      expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
        [hex(1, 32), 0, 0],
        [hex(2, 32), 1100, 1100],
      ]);
      expect(findingsOf(result, 'run-split')).toEqual([]);
    }
  });
});
