import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const result = (call: string, extra: Record<string, unknown>) => ({ run_id: 'r', kind: 'tool_result', call_id: call, tool: 'update_ticket', ...extra });

describe('internal-detail-leak', () => {
  it('names every kind found in an error result, whatever shape the body has', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        result('c1', { is_error: true, result: { error: 'duplicate key value violates unique constraint "users_email_key"', detail: 'DETAIL:  Key (email)=(ana@example.com) already exists.' } }),
        result('c2', { is_error: true, result: [{ type: 'text', text: JSON.stringify({ message: 'connect ECONNREFUSED payments-db.internal:5432 (psycopg2 2.9.9)' }) }] }),
        result('c3', { exit_code: 1, output: readFileSync('test/fixtures/stack-traces/python-simple.txt', 'utf8') }),
      ),
    });
    expect(findingsOf(audit, 'internal-detail-leak')).toEqual([
      { line: 1, callId: 'c1', tool: 'update_ticket', runId: 'r', message: "the error result of 'update_ticket' exposes internals: database constraint/enum detail, database DETAIL/CONTEXT line" },
      { line: 2, callId: 'c2', tool: 'update_ticket', runId: 'r', message: "the error result of 'update_ticket' exposes internals: library/runtime version 'psycopg2 2.9.9', internal host 'payments-db.internal:5432'" },
      { line: 3, callId: 'c3', tool: 'update_ticket', runId: 'r', message: "the error result of 'update_ticket' exposes internals: service path '/srv/ticket-tool/python_simple.py'" },
    ]);
  });

  it('leaves successful results alone unless scope is all', async () => {
    const files = { 't.jsonl': jsonl({ run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'ls', result: 'app.py\n/srv/app/app.py' }) };
    expect(findingsOf(await auditFiles(files), 'internal-detail-leak')).toEqual([]);
    const all = await auditFiles(files, { rules: { 'internal-detail-leak': { scope: 'all' } } });
    expect(findingsOf(all, 'internal-detail-leak').map((f) => f.message)).toEqual(["the result of 'ls' exposes internals: service path '/srv/app/app.py'"]);
  });

  it('passes mapped error bodies and ordinary prose', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        result('c1', { is_error: true, result: { error: 'invalid_status', class: 'invalid_request', message: 'must be one of: open, pending, closed', retryable: false, reference: 'err_7c1f9a' } }),
        result('c2', { is_error: true, result: 'Meet me at the library at 10.30; select a seat from the front row and update the sign-in sheet.' }),
        result('c3', { is_error: true, error_code: 'internal_error', result: 'The ticket service failed. Retry once; if it fails again, report reference err_7c1f9a.' }),
      ),
    });
    expect(findingsOf(audit, 'internal-detail-leak')).toEqual([]);
  });
});
