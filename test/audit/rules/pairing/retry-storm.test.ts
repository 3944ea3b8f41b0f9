import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const call = (line: string, args: unknown, run = 'r') => ({ run_id: run, kind: 'tool_call', call_id: line, tool: 'web_search', args });
const result = (line: string, run = 'r') => ({ run_id: run, kind: 'tool_result', call_id: line, tool: 'web_search', error_class: 'timeout' });

describe('retry-storm', () => {
  it('reports a storm once with its count and lines; key order does not make calls different', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        call('c1', { q: 'x', n: 1 }),
        result('c1'),
        call('c2', { n: 1, q: 'x' }),
        result('c2'),
        call('c3', { q: 'x', n: 1.0 }),
        result('c3'),
        call('c4', { q: 'x', n: 1 }),
      ),
    });
    expect(findingsOf(audit, 'retry-storm')).toEqual([
      { line: 1, callId: 'c1', tool: 'web_search', runId: 'r', message: "tool 'web_search' was called 4 times with identical arguments in this run (lines 1, 3, 5, 7)" },
    ]);
  });

  it('uses the recorded args_hash when the arguments themselves are not in the trace', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        ...['c1', 'c2', 'c3'].map((id) => ({ run_id: 'r_18', kind: 'tool_call', call_id: id, tool: 'web_search', args_hash: 'a1f3' })),
        { run_id: 'r_18', kind: 'tool_call', call_id: 'c4', tool: 'web_search', args_hash: 'b7c2' },
      ),
    });
    expect(findingsOf(audit, 'retry-storm')).toEqual([
      { line: 1, callId: 'c1', tool: 'web_search', runId: 'r_18', message: "tool 'web_search' was called 3 times with identical arguments in this run (lines 1, 2, 3)" },
    ]);
  });

  it('honours the threshold option', async () => {
    const files = { 't.jsonl': jsonl(call('c1', { q: 'x' }), call('c2', { q: 'x' }), call('c3', { q: 'x' })) };
    expect(findingsOf(await auditFiles(files, { rules: { 'retry-storm': { threshold: 4 } } }), 'retry-storm')).toEqual([]);
    expect(findingsOf(await auditFiles(files, { rules: { 'retry-storm': { threshold: 2 } } }), 'retry-storm').map((f) => f.line)).toEqual([1]);
  });

  it('does not flag two repeats, repeats spread over runs, other arguments, or calls without arguments or hash', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        call('c1', { q: 'x' }),
        call('c2', { q: 'x' }),
        call('c3', { q: 'x' }, 'other'),
        call('c4', { q: 'y' }),
        { run_id: 'r', kind: 'tool_call', call_id: 'c5', tool: 'ls' },
        { run_id: 'r', kind: 'tool_call', call_id: 'c6', tool: 'ls' },
        { run_id: 'r', kind: 'tool_call', call_id: 'c7', tool: 'ls' },
      ),
    });
    expect(findingsOf(audit, 'retry-storm')).toEqual([]);
  });
});
