import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const at = (s: number) => new Date(Date.UTC(2026, 8, 7, 9, 14, 0) + s * 1000).toISOString();
const llm = (s: number, extra: object = {}) => ({ ts: at(s), run_id: 'r', kind: 'llm', ...extra });
const call = (s: number, id: string) => ({ ts: at(s), run_id: 'r', kind: 'tool_call', call_id: id, tool: 'web_search' });
const result = (s: number, id: string) => ({ ts: at(s), run_id: 'r', kind: 'tool_result', call_id: id, tool: 'web_search' });

describe('llm-stall', () => {
  it('flags a five-minute gap between llm spans with nothing outstanding', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(llm(0), llm(300)) });
    expect(findingsOf(audit, 'llm-stall')).toEqual([
      { line: 2, callId: null, tool: null, runId: 'r', message: 'no model output for 300 s (from line 1 to this llm span) with no tool call outstanding (gap 8 s)' },
    ]);
  });

  it('measures from the result that left nothing outstanding to the next model output (an llm span or a call)', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(llm(0), call(1, 'c1'), result(2, 'c1'), call(12.5, 'c2'), result(13, 'c2'), llm(14)) });
    expect(findingsOf(audit, 'llm-stall').map((f) => [f.line, f.message])).toEqual([
      [4, 'no model output for 10.5 s (from line 3 to this tool call) with no tool call outstanding (gap 8 s)'],
    ]);
  });

  it('does not measure a wait on a tool: an outstanding call, an orphan, or after a blocked_on span', async () => {
    const audit = await auditFiles({
      'a.jsonl': jsonl(llm(0), call(1, 'c1'), llm(100), result(200, 'c1'), llm(201)),
      'b.jsonl': jsonl(llm(0), call(1, 'c1'), llm(500)),
      'c.jsonl': jsonl(llm(0), { ts: at(1), run_id: 'r', kind: 'blocked_on' }, llm(60)),
      'd.jsonl': jsonl({ run_id: 'r', kind: 'llm' }, { run_id: 'r', kind: 'llm' }),
    });
    expect(findingsOf(audit, 'llm-stall')).toEqual([]);
  });

  it('takes its gap from the options, and measures from the end of a span with a duration', async () => {
    const files = { 't.jsonl': jsonl(llm(0, { duration_ms: 25_000 }), llm(30)) };
    expect(findingsOf(await auditFiles(files), 'llm-stall')).toEqual([]);
    expect(findingsOf(await auditFiles(files, { rules: { 'llm-stall': { gapSeconds: 4 } } }), 'llm-stall').map((f) => f.message)).toEqual([
      'no model output for 5 s (from line 1 to this llm span) with no tool call outstanding (gap 4 s)',
    ]);
  });
});
