import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { argsKeyOf, responseKeyOf } from '../../../src/audit/facts/call-identity.js';
import type { ToolCall, ToolResult } from '../../../src/model/records.js';

const base = { loc: { file: 'f', line: 1 }, runId: 'r', ts: null, spanId: null, catalogSha256: null, callId: 'c1', index: null };
const call = (tool: string, args: unknown): ToolCall => ({ ...base, kind: 'tool_call', tool, args, argsHash: null, deadlineMs: null });
const result = (content: unknown): ToolResult => ({ ...base, kind: 'tool_result', tool: 't', content, isError: false, errorClass: null, errorCode: null, httpStatus: null, exitCode: null });
/** The held digest form, computed here with Node's crypto, not with the code under test. */
const digestOf = (key: string) => `#${createHash('sha256').update(Buffer.from(key, 'utf16le')).digest().subarray(0, 16).toString('latin1')}`;

describe('call and response keys (src/audit/facts/call-identity.ts): whole when short, `#` and 16 digest bytes when long', () => {
  it('keeps a key of 64 characters or fewer whole, Latin-1 or not', () => {
    expect(argsKeyOf(call('search', { q: 'x' }))).toBe('["search",{"q":"x"}]');
    expect(argsKeyOf(call('é', 'ü'))).toBe('["é","ü"]');
    expect(argsKeyOf(call('ok', '\u4e2d\u6587'))).toBe('["ok","\u4e2d\u6587"]');
    // RFC 8785: key order does not change the key.
    expect(argsKeyOf(call('s', { b: 1, a: 2 }))).toBe(argsKeyOf(call('s', { a: 2, b: 1 })));
    expect(responseKeyOf(result('ok'))).toBe('"ok"');
  });

  it('turns a longer key into 17 characters: `#` and the first 16 SHA-256 bytes of its UTF-16 code units', () => {
    const long = { q: 'x'.repeat(100) };
    const key = argsKeyOf(call('search', long))!;
    expect(key).toHaveLength(17);
    expect(key).toBe(digestOf(`["search",{"q":"${'x'.repeat(100)}"}]`));
    expect(responseKeyOf(result(long))).toBe(digestOf(`{"q":"${'x'.repeat(100)}"}`));
    // One character apart, the digests differ; the tool name is part of the key.
    expect(argsKeyOf(call('search', { q: `${'x'.repeat(99)}y` }))).not.toBe(key);
    expect(argsKeyOf(call('searcH', long))).not.toBe(key);
    // 65 characters is the first length kept as a digest.
    const edge = 'a'.repeat(65 - '["t",""]'.length);
    expect(argsKeyOf(call('t', edge))).toBe(digestOf(`["t","${edge}"]`));
    expect(argsKeyOf(call('t', edge.slice(1)))).toBe(`["t","${edge.slice(1)}"]`);
  });

  it('keys the pair [tool, args]: no tool/args split collides, and a tool name JCS refuses still has a key', () => {
    expect(argsKeyOf(call('a', 'b,c'))).not.toBe(argsKeyOf(call('a","b', 'c')));
    expect(argsKeyOf(call('a:1', 2))).not.toBe(argsKeyOf(call('a', '1:2')));
    // A lone surrogate: JCS refuses it, JSON.stringify escapes it, so the name is kept apart.
    expect(argsKeyOf(call('t\ud800', { a: 1 }))).toBe('["t\\ud800",{"a":1}]');
    expect(argsKeyOf(call('t\ud801', { a: 1 }))).not.toBe(argsKeyOf(call('t\ud800', { a: 1 })));
    // Replay transcripts keep their exact canonical text: it is used as written.
    expect(argsKeyOf({ ...call('t', { a: 1.0 }), argsCanonical: '{"a":1.0}' })).toBe('["t",{"a":1.0}]');
    expect(responseKeyOf({ ...result({ a: 1 }), contentCanonical: '{"a":1.0}' })).toBe('{"a":1.0}');
  });

  it('has no key for a call without representable arguments or a result without content', () => {
    expect(argsKeyOf(call('t', undefined))).toBeNull();
    expect(argsKeyOf(call('t', 1n))).toBeNull();
    expect(responseKeyOf(result(undefined))).toBeNull();
  });
});
