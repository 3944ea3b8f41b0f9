import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorShare } from '../../../../src/report/render/metrics-view.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';
import { corpusFile, itCorpus } from '../../../public-corpus.js';

const err = (run: string, call: string, extra: Record<string, unknown>) => ({ run_id: run, kind: 'tool_result', call_id: call, tool: 'update_ticket', is_error: true, ...extra });
const internal = { error: 'internal_error', class: 'transient', retryable: true, retry_after: 2, message: 'The ticket service failed to process this request.', reference: 'err_7c1f9a' };

describe('unmapped-error-share', () => {
  it('warns per run and for the audit when catch-all codes pass the threshold, and records the share', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        err('a', 'c1', { error_code: 'invalid_status' }),
        err('a', 'c2', { result: internal }),
        err('a', 'c3', { error_code: 'INTERNAL_ERROR' }),
        err('a', 'c4', { result: 'boom' }),
        { run_id: 'a', kind: 'tool_result', call_id: 'c5', tool: 'update_ticket', result: 'ok' },
        err('b', 'd1', { error_code: 'not_found' }),
        err('b', 'd2', { error_code: 'not_found' }),
        err('b', 'd3', { error: { code: 'Unknown', message: '?' } }),
        err('b', 'd4', { error_code: 'not_found' }),
        { run_id: 'c', kind: 'tool_result', call_id: 'e1', tool: 'update_ticket', result: 'ok' },
      ),
    });
    expect(findingsOf(audit, 'unmapped-error-share')).toEqual([
      { line: 2, callId: null, tool: null, runId: null, message: '3 of 8 error results across 2 runs (38%) carry a catch-all code (INTERNAL_ERROR ×1, Unknown ×1, internal_error ×1); threshold 25%' },
      { line: 2, callId: null, tool: null, runId: 'a', message: "2 of 4 error results in run 'a' (50%) carry a catch-all code (INTERNAL_ERROR ×1, internal_error ×1); threshold 25%" },
    ]);
    expect(errorShare(audit.metrics).share).toBe(0.375);
    expect(audit.metrics['unmapped-error-share.errors']).toBe(8);
    expect(audit.metrics['unmapped-error-share.unmapped']).toBe(3);
    expect(audit.metrics['unmapped-error-share.uncoded']).toBe(1);
    expect(audit.metrics['unmapped-error-share.runs']).toBe(2);
  });

  it('stays quiet at or under the threshold but still records the share', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(err('r', 'c1', { error_code: 'internal_error' }), err('r', 'c2', { error_code: 'not_found' }), err('r', 'c3', { error_code: 'rate_limited' }), err('r', 'c4', { error_code: 'invalid_status' })),
    });
    expect(findingsOf(audit, 'unmapped-error-share')).toEqual([]);
    expect(errorShare(audit.metrics).share).toBe(0.25);
  });

  it('takes its catch-all list and threshold from the configuration', async () => {
    const files = { 't.jsonl': jsonl(err('r', 'c1', { error_code: 'oops' }), err('r', 'c2', { error_code: 'internal_error' }), err('r', 'c3', { error_code: 'not_found' })) };
    const audit = await auditFiles(files, { rules: { 'unmapped-error-share': { severity: 'error', catchAll: ['OOPS'], threshold: 0.3 } } });
    expect(findingsOf(audit, 'unmapped-error-share').map((f) => f.message)).toEqual(["1 of 3 error results in run 'r' (33%) carry a catch-all code (oops ×1); threshold 30%"]);
    await expect(auditFiles(files, { rules: { 'unmapped-error-share': { threshold: 2 } } })).rejects.toThrow(/threshold/);
  });

  it('records a null share when no result failed', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl({ run_id: 'r', kind: 'tool_result', call_id: 'c', tool: 'ls', result: 'ok' }) });
    expect(findingsOf(audit, 'unmapped-error-share')).toEqual([]);
    expect(errorShare(audit.metrics).share).toBeNull();
    expect(errorShare(audit.metrics).errors).toBe(0);
  });
});

describe('unmapped-error-share on a real log', () => {
  itCorpus("counts inspect_ai's 'unknown' tool error as the one catch-all among its eleven error types", ['inspect/log_tool_call_error.json'], async () => {
    const log = JSON.parse(readFileSync(corpusFile('inspect/log_tool_call_error.json'), 'utf8')) as {
      samples: Array<{ messages: Array<{ tool_call_id: string; function: string; error: unknown }> }>;
    };
    const records = log.samples[0]!.messages.map((m) => ({ run_id: 'inspect', kind: 'tool_result', call_id: m.tool_call_id, tool: m.function, error: m.error }));
    const audit = await auditFiles({ 't.jsonl': jsonl(...records) });
    expect(findingsOf(audit, 'unmapped-error-share')).toEqual([]);
    expect(findingsOf(audit, 'unstructured-error')).toEqual([]);
    expect([audit.metrics['unmapped-error-share.errors'], audit.metrics['unmapped-error-share.unmapped'], errorShare(audit.metrics).share]).toEqual([11, 1, 0.0909]);
  });
});
