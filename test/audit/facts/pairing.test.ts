import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairRun } from '../../../src/audit/facts/pairing.js';
import type { ToolCall, ToolResult, TraceRecord } from '../../../src/model/records.js';
import { runOf } from '../../../src/audit/held/hold.js';

const loc = (line: number) => ({ file: 't.jsonl', line });

function call(line: number, tool: string, callId: string | null): ToolCall {
  return { kind: 'tool_call', loc: loc(line), runId: 'r', ts: null, spanId: null, catalogSha256: null, callId, tool, args: undefined, argsHash: null, deadlineMs: null, index: null };
}

function result(line: number, tool: string | null, callId: string | null): ToolResult {
  return {
    kind: 'tool_result', loc: loc(line), runId: 'r', ts: null, spanId: null, catalogSha256: null, callId, tool, content: undefined,
    isError: false, errorClass: null, errorCode: null, httpStatus: null, exitCode: null, index: null,
  };
}

/** The pairing rule as first written (search and splice one list): the reference the fast one must match. */
function referencePairs(records: readonly TraceRecord[]): Array<[number, number]> {
  const waiting: ToolCall[] = [];
  const pairs: Array<[number, number]> = [];
  for (const record of records) {
    if (record.kind === 'tool_call' && record.callId === null) waiting.push(record);
    else if (record.kind === 'tool_result' && record.callId === null) {
      const at = waiting.findIndex((c) => record.tool === null || c.tool === record.tool);
      if (at !== -1) pairs.push([waiting.splice(at, 1)[0]!.loc.line, record.loc.line]);
    }
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}

describe('pairRun: calls without an id', () => {
  it('a result takes the earliest waiting call of its tool, or of any tool when it names none', () => {
    const run = runOf('t.jsonl', 'r', 'native-jsonl', [
      call(1, 'grep', null),
      call(2, 'read', null),
      call(3, 'grep', null),
      result(4, 'read', null),
      result(5, null, null),
      result(6, 'grep', null),
      result(7, 'grep', null),
    ]);
    const { pairs, orphans, unmatched } = pairRun(run);
    expect(pairs.map(({ call: c, result: r }) => [c.loc.line, r.loc.line])).toEqual([
      [1, 5],
      [2, 4],
      [3, 6],
    ]);
    expect(orphans).toEqual([]);
    expect(unmatched.map((r) => r.loc.line)).toEqual([7]);
  });

  it('matches the search-and-splice reference on any sequence (fixed seed)', () => {
    const tools = ['a', 'b', 'c'];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('call' as const), tool: fc.constantFrom(...tools) }),
      fc.record({ kind: fc.constant('result' as const), tool: fc.option(fc.constantFrom(...tools), { nil: null }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const records = steps.map((s, i) => (s.kind === 'call' ? call(i + 1, s.tool, null) : result(i + 1, s.tool, null)));
        const { pairs, orphans, unmatched } = pairRun(runOf('t.jsonl', 'r', 'native-jsonl', records));
        const got = pairs.map(({ call: c, result: r }): [number, number] => [c.loc.line, r.loc.line]).sort((x, y) => x[0] - y[0]);
        expect(got).toEqual(referencePairs(records));
        const calls = records.filter((r) => r.kind === 'tool_call').length;
        const results = records.length - calls;
        expect(pairs.length + orphans.length).toBe(calls);
        expect(pairs.length + unmatched.length).toBe(results);
      }),
      { seed: 8, numRuns: 400 },
    );
  });

  it('stays linear: 100,000 waiting calls answered in reverse tool order finish at once', () => {
    // The search-and-splice version walks the waiting list for every result: ~5e9 steps here (seconds; this takes milliseconds).
    const records: TraceRecord[] = [];
    const n = 100_000;
    for (let i = 0; i < n; i += 1) records.push(call(i + 1, i < n / 2 ? 'early' : 'late', null));
    for (let i = 0; i < n; i += 1) records.push(result(n + i + 1, i < n / 2 ? 'late' : 'early', null));
    const started = performance.now();
    const { pairs } = pairRun(runOf('t.jsonl', 'r', 'native-jsonl', records));
    expect(pairs).toHaveLength(n);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
