import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../helpers.js';

/**
 * limits.max-run-records (src/audit/held/run-parts.ts): a run that reaches the limit is
 * audited in parts, with one run-split finding, the catalog and the calls still
 * awaiting a result carried into the next part.
 */
const call = (id: string, tool: string) => ({ run_id: 'r', kind: 'tool_call', call_id: id, tool, args: { id } });
const result = (id: string, tool: string) => ({ run_id: 'r', kind: 'tool_result', call_id: id, tool, content: `out ${id}` });
const catalog = { type: 'catalog', run_id: 'r', catalog_names: ['ls'] };

// Six records fill the first part; the seventh (line 7) starts the second, which
// begins with c2 (line 6), the call the first part left waiting in its last tenth;
// c5's unknown tool is still checked against the catalog of line 1.
const lines = jsonl(catalog, call('c1', 'ls'), result('c1', 'ls'), call('c3', 'nope'), result('c3', 'nope'), call('c2', 'ls'), call('c4', 'ls'), result('c2', 'ls'), call('c5', 'nope2'), result('c5', 'nope2'), result('c4', 'ls'));
const ruleIds = (audit: Awaited<ReturnType<typeof auditFiles>>) => audit.findings.map((f) => `${f.ruleId}@${f.line}`).sort();

describe('limits.max-run-records', () => {
  it('cuts a run into parts no larger than the limit, says so once, and carries the awaited call and the catalog on', async () => {
    const cut = await auditFiles({ 't.jsonl': lines }, { limits: { 'max-run-records': 6 } });
    expect(findingsOf(cut, 'run-split')).toEqual([
      {
        line: 7,
        runId: 'r',
        callId: null,
        tool: null,
        message: "run reached 6 records; it is audited in parts of at most 6, each part's calls still awaiting a result carried into the next (raise limits.max-run-records, or 0 for no limit)",
      },
    ]);
    expect(cut.runs.map((r) => [r.runId, r.toolCalls, r.toolResults, r.catalogSha256 !== null])).toEqual([
      ['r', 2, 2, true],
      ['r', 3, 3, true],
    ]);
    expect(ruleIds(cut)).toEqual(['run-split@7', 'unknown-tool@4', 'unknown-tool@9']);
    const whole = await auditFiles({ 't.jsonl': lines }, { limits: { 'max-run-records': 0 } });
    expect(whole.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[5, 5]]);
    expect(ruleIds(whole)).toEqual(['unknown-tool@4', 'unknown-tool@9']);
  });

  it('the default (200,000) leaves an ordinary run whole', async () => {
    const audit = await auditFiles({ 't.jsonl': lines });
    expect(audit.runs).toHaveLength(1);
    expect(findingsOf(audit, 'run-split')).toEqual([]);
  });

  it('carries only the calls waiting in the last tenth of a part: older ones stay in it, as orphans', async () => {
    // Limit 10 (a window of 1 record): the first part is the catalog and c1..c9, none
    // answered; c9, its last record, goes on and finds its result; c1 stays an orphan
    // of the first part, so its late result is unmatched in the second.
    const calls = Array.from({ length: 9 }, (_, i) => call(`c${i + 1}`, 'ls'));
    const audit = await auditFiles({ 't.jsonl': jsonl(catalog, ...calls, result('c9', 'ls'), result('c1', 'ls')) }, { limits: { 'max-run-records': 10 } });
    expect(audit.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([
      [8, 0],
      [1, 2],
    ]);
    expect(findingsOf(audit, 'orphan-call').map((f) => f.callId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8']);
    expect(findingsOf(audit, 'unmatched-result').map((f) => [f.callId, f.line])).toEqual([['c1', 12]]);
    // Each call is counted in exactly one part.
    expect(audit.runs.reduce((n, r) => n + r.toolCalls, 0)).toBe(9);
  });

  it('a run without a catalog gets one catalog-missing, in its first part', async () => {
    const calls = Array.from({ length: 6 }, (_, i) => [call(`c${i}`, 'ls'), result(`c${i}`, 'ls')]).flat();
    const audit = await auditFiles({ 't.jsonl': jsonl(...calls) }, { limits: { 'max-run-records': 4 } });
    expect(audit.runs).toHaveLength(3);
    expect(findingsOf(audit, 'catalog-missing')).toEqual([
      { line: 1, runId: 'r', callId: null, tool: null, message: "run's first part has 2 tool calls but no catalog record: nothing to check the tool names against" },
    ]);
  });
});
