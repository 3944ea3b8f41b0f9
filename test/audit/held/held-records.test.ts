import { describe, expect, it } from 'vitest';
import { Origins } from '../../../src/audit/held/origin.js';
import { EVERY_FACT, hold } from '../../../src/audit/held/hold.js';
import type { LlmSpan, ToolCall, ToolResult } from '../../../src/model/records.js';
import type { HeldCall, HeldResult } from '../../../src/model/run.js';

const base = { runId: 'r', ts: 1767225600123.5, spanId: 's1', catalogSha256: null, callId: 'c1', index: null };
const call: ToolCall = { ...base, loc: { file: 'f', line: 3 }, kind: 'tool_call', tool: 'search', args: { q: 'x' }, argsHash: null, deadlineMs: null };
const result: ToolResult = { ...base, loc: { file: 'f', line: 4 }, kind: 'tool_result', tool: 'search', content: 'ok', isError: false, errorClass: null, errorCode: null, httpStatus: null, exitCode: null };

describe('held records (src/audit/held/held-records.ts): the fields the rules read, in fewer bytes', () => {
  it('reads back every field of a call, a result and a model span as parsed', () => {
    const origins = new Origins();
    const c = hold(call, EVERY_FACT, origins);
    expect(c).toMatchObject({ kind: 'tool_call', loc: { file: 'f', line: 3 }, runId: 'r', ts: base.ts, spanId: 's1', callId: 'c1', tool: 'search', catalogSha256: null, argsHash: null, deadlineMs: null, index: null, hasArgs: true, argsKey: '["search",{"q":"x"}]' });
    expect(c.kind === 'tool_call' && c.schemaSha256).toBeUndefined();
    const rare = hold({ ...call, catalogSha256: 'cat', argsHash: 'h', deadlineMs: 5, index: 2, schemaSha256: 'sch', args: undefined }, EVERY_FACT, origins);
    expect(rare).toMatchObject({ catalogSha256: 'cat', argsHash: 'h', deadlineMs: 5, index: 2, schemaSha256: 'sch', hasArgs: false, argsKey: null });
    const r = hold(result, EVERY_FACT, origins);
    expect(r).toMatchObject({ kind: 'tool_result', loc: { file: 'f', line: 4 }, runId: 'r', isError: false, hasContent: true, errorInContent: false, responseKey: '"ok"', errorClass: null, errorCode: null, httpStatus: null, exitCode: null, index: null, contentErrorCode: null, stackTrace: null });
    const failed = hold({ ...result, isError: true, errorClass: 'E', errorCode: 'E42', httpStatus: 500, exitCode: 1, index: 7, content: undefined }, EVERY_FACT, origins);
    expect(failed).toMatchObject({ isError: true, hasContent: false, errorClass: 'E', errorCode: 'E42', httpStatus: 500, exitCode: 1, index: 7, responseKey: null });
    const span: LlmSpan = { kind: 'llm', loc: { file: 'f', line: 9 }, runId: 'r', ts: 1, spanId: null, catalogSha256: 'cat', endTs: 2, message: true };
    expect(hold(span, EVERY_FACT, origins)).toMatchObject({ ...span });
    // One origin per run: the records of a run share their file and run id.
    expect(origins.of({ file: 'f', line: 1 }, 'r')).toBe(origins.of({ file: 'f', line: 2 }, 'r'));
    expect(origins.of({ file: 'f', line: 1 }, 'other')).not.toBe(origins.of({ file: 'f', line: 1 }, 'r'));
    expect(origins.of({ file: 'g', line: 1 }, 'r').file).toBe('g');
  });

  it('gives back every time exactly: whole ones kept as small differences from the first of the run, the others as they are', () => {
    const origins = new Origins();
    const times = [1767225600000, 1767225600001, 1767225599000, null, 1767225600000.25, -0, 0, 1767225600000 + 2 ** 31, 2 ** 53 - 1, -(2 ** 40), 1767225600005];
    const held = times.map((ts, line) => hold({ ...call, loc: { file: 'f', line }, ts }, EVERY_FACT, origins));
    expect(held.map((c) => c.ts)).toEqual(times);
    expect(Object.is(held[5]!.ts, -0)).toBe(true);
    const span: LlmSpan = { kind: 'llm', loc: { file: 'f', line: 1 }, runId: 'r', ts: null, spanId: null, catalogSha256: null, endTs: 1767225600000.5 };
    expect(hold(span, EVERY_FACT, origins)).toMatchObject({ ts: null, endTs: 1767225600000.5, message: undefined });
    expect(hold({ ...span, ts: 5, endTs: 1767225600009, message: false }, EVERY_FACT, new Origins())).toMatchObject({ ts: 5, endTs: 1767225600009, message: false });
    expect(hold({ ...result, ts: 1767225600002 }, EVERY_FACT, origins).ts).toBe(1767225600002);
  });
});

describe('the records of a run: call ids and tool names shared (src/audit/held/origin.ts), line and flags in one field', () => {
  const held = (record: ToolCall | ToolResult, origins: Origins) => hold(record, EVERY_FACT, origins) as HeldCall | HeldResult;

  it('gives each result its own call id: answered, answered twice, never answered, past the bound of unanswered calls', () => {
    const origins = new Origins();
    const id = (n: number) => ['c', n].join('');
    const calls = Array.from({ length: 600 }, (_, n) => held({ ...call, callId: id(n) }, origins));
    const results = [599, 5, 599, 300, 0, 42].map((n) => held({ ...result, callId: id(n) }, origins));
    expect(calls.map((c) => c.callId)).toEqual(Array.from({ length: 600 }, (_, n) => id(n)));
    expect(results.map((r) => r.callId)).toEqual(['c599', 'c5', 'c599', 'c300', 'c0', 'c42']);
    expect(held({ ...result, callId: null }, origins).callId).toBeNull();
    expect(held({ ...call, callId: null }, origins).callId).toBeNull();
  });

  it('gives each record its own tool name, past the bound of names a run keeps one string of', () => {
    const origins = new Origins();
    const names = Array.from({ length: 600 }, (_, n) => `tool_${n % 300}_${'x'.repeat(n % 7)}`);
    expect(names.map((tool) => held({ ...call, tool }, origins).tool)).toEqual(names);
    expect(names.map((tool) => held({ ...result, tool }, origins).tool)).toEqual(names);
    expect(held({ ...result, tool: null }, origins).tool).toBeNull();
  });

  it('reads back the line and the flags kept with it, past 2^27 lines too', () => {
    const origins = new Origins();
    for (const line of [0, 1, 2 ** 27 - 1, 2 ** 27, 2 ** 31 + 3, 2 ** 45 + 1]) {
      const c = held({ ...call, loc: { file: 'f', line }, ts: 1767225600000 }, origins);
      expect(c).toMatchObject({ loc: { file: 'f', line }, ts: 1767225600000, hasArgs: true });
      const r = held({ ...result, loc: { file: 'f', line }, isError: true, content: '{}', ts: 1767225600000 }, origins);
      expect(r).toMatchObject({ loc: { file: 'f', line }, ts: 1767225600000, isError: true, hasContent: true, errorInContent: false });
    }
  });
});
