import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const call = { ts: '2026-09-07T09:14:01.440Z', run_id: 'r_18', kind: 'tool_call', call_id: 'c_9', tool: 'web_search', args_hash: 'a1f3', deadline_ms: 8000 };
const result = (ts: string, extra: object = {}) => ({ ts, run_id: 'r_18', kind: 'tool_result', call_id: 'c_9', tool: 'web_search', ...extra });

describe('budget-miss', () => {
  it('classifies http_status >= 500 as an upstream fault', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(call, result('2026-09-07T09:14:10.440Z', { http_status: 503, error_class: 'upstream' })) });
    expect(findingsOf(audit, 'budget-miss')).toEqual([
      {
        line: 1,
        callId: 'c_9',
        tool: 'web_search',
        runId: 'r_18',
        message: "call 'c_9' to 'web_search' took 9000 ms against a deadline of 8000 ms (result at line 2; http_status 503: upstream fault, not a model stall; retry with jitter)",
      },
    ]);
  });

  it('classifies a miss without http_status as a tool stall or too tight a deadline', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(call, result('2026-09-07T09:14:09.441Z')) });
    expect(findingsOf(audit, 'budget-miss')).toEqual([
      {
        line: 1,
        callId: 'c_9',
        tool: 'web_search',
        runId: 'r_18',
        message: "call 'c_9' to 'web_search' took 8001 ms against a deadline of 8000 ms (result at line 2; no http_status: tool stall or too tight a deadline)",
      },
    ]);
  });

  it('says a late 4xx is no upstream fault', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(call, result('2026-09-07T09:14:12.000Z', { http_status: 429 })) });
    expect(findingsOf(audit, 'budget-miss').map((f) => f.message)).toEqual([
      "call 'c_9' to 'web_search' took 10560 ms against a deadline of 8000 ms (result at line 2; http_status 429: tool stall or too tight a deadline)",
    ]);
  });

  it('does not flag a result at the deadline, a call without deadline or timestamps, or an orphan', async () => {
    const audit = await auditFiles({
      'a.jsonl': jsonl(call, result('2026-09-07T09:14:09.440Z', { http_status: 503 })),
      'b.jsonl': jsonl({ ...call, deadline_ms: undefined }, result('2026-09-07T09:15:00.000Z')),
      'c.jsonl': jsonl({ ...call, ts: undefined }, result('2026-09-07T09:15:00.000Z')),
      'd.jsonl': jsonl(call),
    });
    expect(findingsOf(audit, 'budget-miss')).toEqual([]);
  });
});
