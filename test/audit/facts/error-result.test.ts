import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isErrorResult } from '../../../src/audit/facts/error-result.js';
import { EVERY_FACT, hold } from '../../../src/audit/held/hold.js';
import type { ToolResult } from '../../../src/model/records.js';
import type { HeldResult } from '../../../src/model/run.js';

const TRACEBACK = readFileSync('test/fixtures/seeds/002-update-ticket-traceback.txt', 'utf8');
const result = (content: unknown, isError = false): HeldResult => hold(parsed(content, isError), EVERY_FACT) as HeldResult;
const parsed = (content: unknown, isError: boolean): ToolResult => ({
  kind: 'tool_result',
  loc: { file: 'f', line: 1 },
  runId: null,
  ts: null,
  spanId: null,
  catalogSha256: null,
  callId: 'c',
  tool: 't',
  content,
  isError,
  errorClass: null,
  errorCode: null,
  httpStatus: null,
  exitCode: null,
  index: null,
});

describe('isErrorResult', () => {
  it('takes the record flag, and reads errors nothing flagged from the content', () => {
    expect(isErrorResult(result('fine', true))).toBe(true);
    // Seed 002's traceback as a plain string, inside a field, inside a content array, as JSON text.
    expect(isErrorResult(result(TRACEBACK))).toBe(true);
    expect(isErrorResult(result({ detail: TRACEBACK }))).toBe(true);
    expect(isErrorResult(result([{ type: 'text', text: TRACEBACK }]))).toBe(true);
    expect(isErrorResult(result(JSON.stringify({ output: TRACEBACK })))).toBe(true);
    // The str(exc) shapes: an error member, and an exception line opening the body.
    expect(isErrorResult(result({ error: 'invalid input value for enum ticket_status: "OPEN"' }))).toBe(true);
    expect(isErrorResult(result('{"error": {"code": "not_found"}}'))).toBe(true);
    expect(isErrorResult(result('asyncpg.exceptions.InvalidTextRepresentationError: invalid input value'))).toBe(true);
    expect(isErrorResult(result([{ type: 'text', text: 'TypeError: Cannot read properties of undefined' }]))).toBe(true);
    expect(isErrorResult(result('Error: ENOENT: no such file or directory'))).toBe(true);
  });

  it('does not read successful results as errors: source code, prose, empty error members', () => {
    expect(isErrorResult(result('def f():\n    raise ValueError("bad")\n'))).toBe(false);
    expect(isErrorResult(result('Error handling is covered in chapter 7.'))).toBe(false);
    expect(isErrorResult(result({ ok: true, error: null, errors: [] }))).toBe(false);
    expect(isErrorResult(result({ text: 'The ValueError: section of the docs explains it.' }))).toBe(false);
    expect(isErrorResult(result({ rows: 2, note: 'TypeError: is a class name here' }))).toBe(false);
    expect(isErrorResult(result(undefined))).toBe(false);
  });
});
