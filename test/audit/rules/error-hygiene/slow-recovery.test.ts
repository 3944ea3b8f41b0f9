import { describe, expect, it } from 'vitest';
import { recoveryDistribution } from '../../../../src/report/render/metrics-view.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

/** A call line and its result line; `error` makes the result an error with that code. */
function step(run: string, id: string, tool: string, error?: string): unknown[] {
  const result = error === undefined ? { result: 'ok' } : { is_error: true, error_code: error };
  return [
    { run_id: run, kind: 'tool_call', call_id: id, tool },
    { run_id: run, kind: 'tool_result', call_id: id, tool, ...result },
  ];
}

describe('slow-recovery', () => {
  it('counts further calls until the same tool succeeds, or until the run ends', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        ...step('r', 'c1', 'update_ticket', 'internal_error'), // lines 1-2: opens an episode
        ...step('r', 'c2', 'update_ticket', 'internal_error'), // a failing retry belongs to it
        ...step('r', 'c3', 'get_ticket'),
        ...step('r', 'c4', 'update_ticket', 'invalid_status'),
        ...step('r', 'c5', 'update_ticket'), // success 4 calls after c1
        ...step('r', 'c6', 'search', 'timeout'),
        ...step('r', 'c7', 'search'), // success 1 call after c6
        ...step('r', 'c8', 'send_email', 'internal_error'), // lines 15-16: never succeeds
        ...step('r', 'c9', 'ls'),
        ...step('r', 'c10', 'ls'),
        ...step('r', 'c11', 'notify', 'unknown'), // the last call: nothing followed, no warning
      ),
    });
    expect(findingsOf(audit, 'slow-recovery')).toEqual([
      { line: 2, callId: 'c1', tool: 'update_ticket', runId: 'r', message: "'update_ticket' needed 4 further calls to succeed after this error (threshold 2)" },
      { line: 16, callId: 'c8', tool: 'send_email', runId: 'r', message: "'send_email' never succeeded after this error: the run ended 3 calls later (threshold 2)" },
    ]);
    expect(audit.metrics['slow-recovery.attempts']).toEqual({ '1': 1, '4': 1 });
    expect(recoveryDistribution(audit.metrics)).toEqual({ count: 2, unrecovered: 2, median: 1, p90: 4, max: 4 });
  });

  it('keeps runs apart and passes quick recoveries', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        ...step('a', 'c1', 'update_ticket', 'invalid_status'),
        ...step('b', 'c1', 'update_ticket'),
        ...step('a', 'c2', 'get_ticket'),
        ...step('a', 'c3', 'update_ticket'),
      ),
    });
    expect(findingsOf(audit, 'slow-recovery')).toEqual([]);
    expect(recoveryDistribution(audit.metrics)).toEqual({ count: 1, unrecovered: 0, median: 2, p90: 2, max: 2 });
  });

  it('takes the threshold from the configuration and derives nulls when nothing failed', async () => {
    const files = { 't.jsonl': jsonl(...step('r', 'c1', 'ls', 'error'), ...step('r', 'c2', 'cat'), ...step('r', 'c3', 'ls')) };
    const strict = await auditFiles(files, { rules: { 'slow-recovery': { threshold: 1 } } });
    expect(findingsOf(strict, 'slow-recovery').map((f) => f.message)).toEqual(["'ls' needed 2 further calls to succeed after this error (threshold 1)"]);
    const clean = await auditFiles({ 't.jsonl': jsonl(...step('r', 'c1', 'ls')) });
    expect(recoveryDistribution(clean.metrics)).toEqual({ count: 0, unrecovered: 0, median: null, p90: null, max: null });
  });
});
