import { describe, expect, it } from 'vitest';
import { errorCodeOfResult } from '../../../src/audit/facts/error-code.js';
import { EVERY_FACT, hold } from '../../../src/audit/held/hold.js';
import type { ToolResult } from '../../../src/model/records.js';
import type { HeldResult } from '../../../src/model/run.js';

const result = (content: unknown, errorCode: string | null = null): ToolResult => ({
  kind: 'tool_result',
  loc: { file: 't.jsonl', line: 1 },
  runId: null,
  ts: null,
  spanId: null,
  catalogSha256: null,
  callId: 'c',
  tool: 'update_ticket',
  content,
  isError: true,
  errorClass: null,
  errorCode,
  httpStatus: null,
  exitCode: null,
  index: null,
});

describe('errorCodeOfResult', () => {
  it.each([
    ['the record code first', result({ code: 'other' }, 'rate_limited'), 'rate_limited'],
    ['the seed body: error is a code', result({ error: 'invalid_status', class: 'invalid_request', retryable: false }), 'invalid_status'],
    ['code', result({ code: 'ENOENT', message: 'no such file' }), 'ENOENT'],
    ['error_code', result({ error_code: 'E1234' }), 'E1234'],
    ['errorCode', result({ errorCode: 'NotFound' }), 'NotFound'],
    ['error.code', result({ error: { code: 'not_found', message: 'x' } }), 'not_found'],
    ['error.type (OpenAI/Anthropic error bodies)', result({ error: { type: 'invalid_request_error', message: 'x' } }), 'invalid_request_error'],
    ['an integer code (JSON-RPC)', result({ error: { code: -32602, message: 'Invalid params' } }), '-32602'],
    ['type next to a message', result({ type: 'permission_denied', message: 'no' }), 'permission_denied'],
    ['JSON in a string', result('{"error": "timeout", "retryable": true}'), 'timeout'],
    ['JSON in a content-array item', result([{ type: 'text', text: '{"code": "quota_exceeded"}' }]), 'quota_exceeded'],
    ['MCP structuredContent', result({ content: [{ type: 'text', text: 'bad' }], structuredContent: { code: 'bad_date' } }), 'bad_date'],
  ])('%s', (_name, r, code) => {
    expect(errorCodeOfResult(hold(r, EVERY_FACT) as HeldResult)).toBe(code);
  });

  it.each([
    ['a bare message', result('invalid input value for enum ticket_status: "OPEN"')],
    ['str(exc) under error', result({ error: 'connection refused by peer' })],
    ['a content type is not a code', result([{ type: 'text', text: 'failed' }])],
    ['type without a message', result({ type: 'ticket', id: 7 })],
    ['a code that is a sentence', result({ code: 'it broke, sorry' })],
    ['a fractional number', result({ code: 1.5 })],
    ['no body', result(undefined)],
    ['an empty record code', result('x', '')],
    ['inherited keys do not count', result(Object.create({ code: 'proto_code' }))],
  ])('none for %s', (_name, r) => {
    expect(errorCodeOfResult(hold(r, EVERY_FACT) as HeldResult)).toBeNull();
  });
});
