import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { materialize, runAudit } from '../../../src/audit/engine/engine.js';
import { argsKeyOf } from '../../../src/audit/facts/call-identity.js';
import { EVERY_FACT, hold, holdNeeds } from '../../../src/audit/held/hold.js';
import { resolveConfig } from '../../../src/config/config.js';
import type { ToolCall, ToolResult } from '../../../src/model/records.js';
import type { Run } from '../../../src/model/run.js';
import { tempTree } from '../../helpers.js';

const base = { loc: { file: 'f', line: 1 }, runId: 'r', ts: null, spanId: null, catalogSha256: null, callId: 'c1', index: null };
const call: ToolCall = { ...base, kind: 'tool_call', tool: 'search', args: { q: 'x'.repeat(100), n: 1 }, argsHash: null, deadlineMs: null, argsCanonical: `{"n":1,"q":"${'x'.repeat(100)}"}` };
const result: ToolResult = { ...base, kind: 'tool_result', tool: 'search', content: { error: 'TypeError: no' }, isError: false, errorClass: null, errorCode: null, httpStatus: null, exitCode: null, contentCanonical: '{"error":"TypeError: no"}' };

describe('held records carry no payload (src/audit/held/hold.ts)', () => {
  it('drops args, content and their canonical texts, keeping the facts the rules read', () => {
    const heldCall = hold(call, EVERY_FACT);
    const heldResult = hold(result, EVERY_FACT);
    expect(['args', 'argsCanonical'].filter((key) => Object.hasOwn(heldCall, key))).toEqual([]);
    expect(['content', 'contentCanonical'].filter((key) => Object.hasOwn(heldResult, key))).toEqual([]);
    // The argument key of a long argument text is its digest, held as `#` and the first 16 bytes of its SHA-256 (call-identity.ts); a short response key is itself.
    expect(heldCall).toMatchObject({ kind: 'tool_call', hasArgs: true, tool: 'search', loc: { file: 'f', line: 1 }, runId: 'r' });
    const digest = createHash('sha256').update(Buffer.from(`["search",${call.argsCanonical}]`, 'utf16le')).digest().subarray(0, 16);
    expect(heldCall.kind === 'tool_call' && heldCall.argsKey).toBe(`#${digest.toString('latin1')}`);
    expect(argsKeyOf(call)).toBe(heldCall.kind === 'tool_call' && heldCall.argsKey);
    // An error result's answer is never compared (non-determinism skips failed calls): no response key.
    expect(heldResult).toMatchObject({ hasContent: true, errorInContent: true, contentErrorCode: null, responseKey: null, stackTrace: null });
    const answer = hold({ ...result, content: { rows: 2 }, contentCanonical: '{"rows":2}' }, EVERY_FACT);
    expect(answer).toMatchObject({ errorInContent: false, responseKey: '{"rows":2}' });
    // Without a rule that keeps them, the response key and the stack trace are not taken.
    expect(hold({ ...result, content: { rows: 2 }, contentCanonical: '{"rows":2}' }, holdNeeds([]))).toMatchObject({ responseKey: null, stackTrace: null, errorInContent: false });
  });

  it('an audited run holds no payload in any of its records, and a check cannot read one (typecheck)', async () => {
    const root = tempTree({
      'a.jsonl': [
        '{"type":"tool_call","run_id":"r","tool_call_id":"c1","name":"read_file","arguments":{"path":"secret.txt"}}',
        '{"type":"tool_result","run_id":"r","tool_call_id":"c1","content":"Traceback (most recent call last):\\n  File \\"x.py\\", line 1, in f\\nValueError: bad"}',
      ].join('\n') + '\n',
    });
    const runs: Run[] = [];
    const result = materialize(await runAudit([{ path: `${root}/a.jsonl`, display: 'a.jsonl' }], resolveConfig({}), { onRun: (run) => runs.push(run) }));
    expect(result.findings.map((f) => f.ruleId)).toContain('stack-trace-in-result');
    expect(runs.map((run) => [run.calls.length, run.results.length])).toEqual([[1, 1]]);
    const payloadKeys = runs[0]!.records.flatMap((record) => ['args', 'argsCanonical', 'content', 'contentCanonical'].filter((key) => Object.hasOwn(record, key)));
    expect(payloadKeys).toEqual([]);
    // @ts-expect-error a held call has no arguments: payload scans belong in Rule.record
    expect(runs[0]!.calls[0]!.args).toBeUndefined();
    // @ts-expect-error a held result has no content
    expect(runs[0]!.results[0]!.content).toBeUndefined();
  });
});
