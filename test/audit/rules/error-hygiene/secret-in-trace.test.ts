import { describe, expect, it } from 'vitest';
import { secretFingerprint } from '../../../../src/audit/secrets/fingerprint.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const GHP = `ghp_${'a1B2c3D4e5'.repeat(3)}XyZ789`;
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const fp = (secret: string) => secretFingerprint(secret);

describe('secret-in-trace', () => {
  it('uses a documented fixed key: the fingerprint of a known value does not change', () => {
    expect(fp(GHP)).toBe(FP_GHP);
  });

  it('finds tokens in arguments and results, headers and URLs, and never shows them', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'http_get', args: { url: 'https://api.example.com/v1?page=2&api_key=abcd1234efgh', headers: { Authorization: `Bearer ${GHP}` } } },
        { run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'http_get', result: { content: [{ type: 'text', text: `aws key ${AWS} found` }] } },
        { type: 'tool_call', tool_call_id: 'c2', name: 'login', arguments: { user: 'ann', password: 'hunter2!' } },
        { type: 'tool_result', tool_call_id: 'c2', name: 'login', output: JSON.stringify({ session: { token: 'opaque-session-value' } }) },
      ),
    });
    expect(findingsOf(result, 'secret-in-trace')).toEqual([
      { line: 1, callId: 'c1', tool: 'http_get', runId: 'r', message: `github-token in arguments of call 'c1' at 'args.headers.Authorization' (fingerprint ${FP_GHP})` },
      { line: 1, callId: 'c1', tool: 'http_get', runId: 'r', message: `url-secret-param in arguments of call 'c1' at 'args.url' (fingerprint ${fp('abcd1234efgh')})` },
      { line: 2, callId: 'c1', tool: 'http_get', runId: 'r', message: `aws-access-key in result of call 'c1' at 'result.content[0].text' (fingerprint ${fp(AWS)})` },
      { line: 3, callId: 'c2', tool: 'login', runId: null, message: `sensitive-field in arguments of call 'c2' at 'args.password' (fingerprint ${fp('hunter2!')})` },
      { line: 4, callId: 'c2', tool: 'login', runId: null, message: `sensitive-field in result of call 'c2' at 'result<json>.session.token' (fingerprint ${fp('opaque-session-value')})` },
    ]);
    const all = JSON.stringify(result);
    for (const secret of [GHP, AWS, 'abcd1234efgh', 'hunter2!', 'opaque-session-value']) expect(all).not.toContain(secret);
  });

  it('scans decoded strings: a \\u-escaped token in the JSON text is found', async () => {
    const line = JSON.stringify({ kind: 'tool_call', call_id: 'c', tool: 'git', args: { remote: `https://x-access-token:${GHP}@github.com/o/r` } }).replace('ghp_', '\\u0067hp_');
    const result = await auditFiles({ 't.jsonl': `${line}\n` });
    expect(findingsOf(result, 'secret-in-trace').map((f) => f.message)).toEqual([
      `github-token in arguments of call 'c' at 'args.remote' (fingerprint ${FP_GHP})`,
      `url-credentials in arguments of call 'c' at 'args.remote' (fingerprint ${fp('x-access-token:[REDACTED:github-token]')})`,
    ]);
  });

  it('finds a secret only its decoded view shows, alone in a field and as a key', async () => {
    // Fullwidth letters (NFKC) and a percent escape: nothing a pattern needs is in the raw text.
    const wide = [...GHP].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    const escaped = `xox%62-1234567890`;
    const result = await auditFiles({
      't.jsonl': jsonl(
        { kind: 'tool_call', call_id: 'c', tool: 'env', args: { note: wide } },
        { kind: 'tool_result', call_id: 'c', tool: 'env', result: { [escaped]: 'cached' } },
      ),
    });
    expect(findingsOf(result, 'secret-in-trace').map((f) => f.message)).toEqual([
      `github-token in arguments of call 'c' at 'args.note' (fingerprint ${FP_GHP})`,
      `slack-token in result of call 'c' at 'result.[REDACTED:slack-token]' (fingerprint ${fp('xoxb-1234567890')})`,
    ]);
  });

  it('finds a token hidden in a base64 blob and in a boundary payload', async () => {
    const blob = Buffer.from(`x-access-token:${GHP}`).toString('base64');
    const result = await auditFiles({
      't.jsonl': jsonl(
        { kind: 'tool_result', call_id: 'c', tool: 'env', result: { data: blob } },
        { call_id: 'c', process_sha256: 'x', process_payload: `key=${AWS}` },
      ),
    });
    expect(findingsOf(result, 'secret-in-trace').map((f) => [f.line, f.message])).toEqual([
      [1, `base64-github-token in result of call 'c' at 'result.data' (fingerprint ${fp(blob)})`],
      [2, `aws-access-key in boundary payloads of call 'c' at 'process_payload' (fingerprint ${fp(AWS)})`],
    ]);
  });

  it('finds a secret used as an object key, and the message shows it redacted', async () => {
    const result = await auditFiles({ 't.jsonl': jsonl({ kind: 'tool_result', call_id: 'c', tool: 'cache', result: { [GHP]: { user: 'ann' } } }) });
    expect(findingsOf(result, 'secret-in-trace').map((f) => f.message)).toEqual([
      `github-token in result of call 'c' at 'result.[REDACTED:github-token].user' (fingerprint ${FP_GHP})`,
    ]);
  });

  // Findings of one line are ordered by message.
  it('reports one secret once per record part and honours allowFingerprints', async () => {
    const files = { 't.jsonl': jsonl({ kind: 'tool_call', call_id: 'c', tool: 't', args: { a: GHP, b: GHP, c: AWS } }) };
    expect(findingsOf(await auditFiles(files), 'secret-in-trace').map((f) => f.message)).toEqual([
      `aws-access-key in arguments of call 'c' at 'args.c' (fingerprint ${fp(AWS)})`,
      `github-token in arguments of call 'c' at 'args.a' (fingerprint ${FP_GHP})`,
    ]);
    const allowed = await auditFiles(files, { rules: { 'secret-in-trace': { allowFingerprints: [FP_GHP] } } });
    expect(findingsOf(allowed, 'secret-in-trace').map((f) => f.message)).toEqual([`aws-access-key in arguments of call 'c' at 'args.c' (fingerprint ${fp(AWS)})`]);
  });

  it('does not flag commit SHAs, UUIDs, ordinary words, placeholders or fields about credentials', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        {
          kind: 'tool_call',
          call_id: 'c',
          tool: 'deploy',
          args: {
            commit: '3f786850e387550fdab836ed7e6dc881de23001b',
            request_id: '123e4567-e89b-12d3-a456-426614174000',
            note: 'the authorization step needs a token; see the password policy',
            password: '********',
            api_key: '${API_KEY}',
            client_secret: '[REDACTED]',
            token: '',
            token_count: '1234',
            max_tokens: '512',
            password_policy: 'min 12 chars',
          },
        },
        { kind: 'tool_result', call_id: 'c', tool: 'deploy', result: 'deployed 3f786850e387550fdab836ed7e6dc881de23001b' },
      ),
    });
    expect(findingsOf(result, 'secret-in-trace')).toEqual([]);
  });
});

// printf '%s' ghp_… | openssl dgst -sha256 -hmac 'agent-trace-audit/secret-fingerprint/v1'
const FP_GHP = 'a77c7cee8844';
