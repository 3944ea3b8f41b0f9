import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';
import { corpusFile, itCorpus } from '../../../public-corpus.js';

const result = (line: Record<string, unknown>) => ({ run_id: 'r', kind: 'tool_result', tool: 'update_ticket', ...line });

describe('unstructured-error', () => {
  it('flags str(exc) bodies, bare messages and empty bodies of error results', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        result({ call_id: 'c1', is_error: true, result: { error: 'invalid input value for enum ticket_status: "OPEN"' } }),
        result({ call_id: 'c2', exit_code: 1, output: 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>' }),
        result({ call_id: 'c3', http_status: 500 }),
        result({ call_id: 'c4', is_error: true, result: [{ type: 'text', text: 'Something went wrong' }] }),
      ),
    });
    expect(findingsOf(audit, 'unstructured-error')).toEqual([
      { line: 1, callId: 'c1', tool: 'update_ticket', runId: 'r', message: 'error result of \'update_ticket\' has no machine-readable code (body: "invalid input value for enum ticket_status: "OPEN"")' },
      { line: 2, callId: 'c2', tool: 'update_ticket', runId: 'r', message: 'error result of \'update_ticket\' has no machine-readable code (body: "Traceback (most recent call last):")' },
      { line: 3, callId: 'c3', tool: 'update_ticket', runId: 'r', message: "error result of 'update_ticket' has no machine-readable code (empty body)" },
      { line: 4, callId: 'c4', tool: 'update_ticket', runId: 'r', message: 'error result of \'update_ticket\' has no machine-readable code (body: "Something went wrong")' },
    ]);
  });

  itCorpus('flags the MCP example of a tool-input error (text only, isError true)', ['mcp/invalid-tool-input-error.json'], async () => {
    const mcp = JSON.parse(readFileSync(corpusFile('mcp/invalid-tool-input-error.json'), 'utf8')) as { content: unknown };
    const audit = await auditFiles({ 't.jsonl': jsonl(result({ call_id: 'c', tool: 'book_flight', is_error: true, content: mcp.content })) });
    expect(findingsOf(audit, 'unstructured-error').map((f) => f.message)).toEqual([
      'error result of \'book_flight\' has no machine-readable code (body: "Invalid departure date: must be in the future. Current date is 08/08/2025.")',
    ]);
  });

  it('accepts a code wherever the body carries one, and ignores successful results', async () => {
    const seedBody = { error: 'invalid_status', class: 'invalid_request', field: 'status', message: 'must be one of: open, pending, closed', retryable: false, reference: 'err_7c1f9a' };
    const audit = await auditFiles({
      't.jsonl': jsonl(
        result({ call_id: 'a', is_error: true, result: seedBody }),
        result({ call_id: 'b', is_error: true, error_code: 'rate_limited' }),
        result({ call_id: 'c', is_error: true, error: { code: 'not_found', message: 'no ticket 7' } }),
        result({ call_id: 'd', is_error: true, result: [{ type: 'text', text: JSON.stringify({ code: 'ENOENT', message: 'no such file' }) }] }),
        result({ call_id: 'e', is_error: true, result: JSON.stringify({ error: { type: 'invalid_request_error', message: 'bad' } }) }),
        result({ call_id: 'f', is_error: true, result: { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid params' } } }),
        result({ call_id: 'g', is_error: true, result: { type: 'permission_denied', message: 'not allowed' } }),
        result({ call_id: 'h', result: 'plain success text' }),
      ),
    });
    expect(findingsOf(audit, 'unstructured-error')).toEqual([]);
  });

  it('does not take a content type or a sentence for a code', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        result({ call_id: 'a', is_error: true, result: { type: 'text', text: 'failed to connect' } }),
        result({ call_id: 'b', is_error: true, result: { error: 'connection refused by peer' } }),
        result({ call_id: 'c', is_error: true, result: { code: 'print(1) raised', message: 'x' } }),
      ),
    });
    expect(findingsOf(audit, 'unstructured-error').map((f) => f.callId)).toEqual(['a', 'b', 'c']);
  });
});
