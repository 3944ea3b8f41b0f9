import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/seal/redact/redact.js';
import { jsonl, tempTree } from '../helpers.js';
import { cli } from '../cli/run-cli.js';
import { PLANTED, PLANTED_TRACE } from './planted-secrets.js';

describe('Redactor', () => {
  it('numbers each replaced value over the file and keeps its UTF-8 length and JSON path, never the value', () => {
    const redactor = new Redactor();
    const first = redactor.line(JSON.stringify({ a: `key ${PLANTED.aws} here`, password: PLANTED.password }));
    expect(first.text).toBe('{"a":"key [REDACTED:aws-access-key:1] here","password":"[REDACTED:sensitive-field:2]"}');
    expect(first.hits).toEqual([
      { ruleId: 'aws-access-key', originalLen: 20, token: '[REDACTED:aws-access-key:1]', fieldPath: 'a' },
      { ruleId: 'sensitive-field', originalLen: 21, token: '[REDACTED:sensitive-field:2]', fieldPath: 'password' },
    ]);
    const second = redactor.line(`Authorization: Bearer ${PLANTED.bearer} and [REDACTED:jwt] already`);
    expect(second.text).toBe('Authorization: Bearer [REDACTED:authorization-header:3] and [REDACTED:jwt] already');
    expect(second.hits).toEqual([{ ruleId: 'authorization-header', originalLen: PLANTED.bearer.length, token: '[REDACTED:authorization-header:3]', fieldPath: null }]);
    // A sensitive field inside a JSON string inside the line.
    const third = redactor.line(JSON.stringify({ content: JSON.stringify({ client_secret: PLANTED.inner }) }));
    expect(third.text).toBe('{"content":"{\\"client_secret\\":\\"[REDACTED:sensitive-field:4]\\"}"}');
    expect(third.hits[0]!.fieldPath).toBe('content<json>.client_secret');
  });
});

describe('seal --redact', () => {
  it('replaces every planted secret before sealing; one receipt per secret-in-trace finding (same line and rule); the chain verifies intact', async () => {
    const root = tempTree({ 't.jsonl': PLANTED_TRACE });
    const audit = await cli(['audit', 't.jsonl', '--format', 'json', '--fail-on', 'never'], root);
    const findings = (JSON.parse(audit.stdout) as { findings: Array<{ ruleId: string; line: number; message: string }> }).findings.filter((f) => f.ruleId === 'secret-in-trace');
    expect(findings.map((f) => [f.line, f.message.split(' ')[0]])).toEqual([
      [1, 'aws-access-key'],
      [1, 'sensitive-field'],
      [2, 'github-token'],
      [3, 'sensitive-field'],
      [4, 'sensitive-field'],
    ]);
    const sealed = await cli(['seal', 't.jsonl', '--redact'], root);
    expect(sealed.code).toBe(0);
    expect(sealed.stdout).toContain('redacted: 5 value(s) replaced before sealing, one receipt each in the checkpoint (t.sealed.jsonl.seal.json)\n');
    const chain = readFileSync(join(root, 't.sealed.jsonl'), 'utf8');
    const checkpointText = readFileSync(join(root, 't.sealed.jsonl.seal.json'), 'utf8');
    for (const secret of Object.values(PLANTED)) {
      expect(chain).not.toContain(secret);
      expect(checkpointText).not.toContain(secret);
    }
    const checkpoint = JSON.parse(checkpointText) as { redactions: Array<{ line: number; field_path: string; rule_id: string; original_len: number; token: string }> };
    expect(checkpoint.redactions).toEqual([
      { line: 1, field_path: 'args.key_id', rule_id: 'aws-access-key', original_len: 20, token: '[REDACTED:aws-access-key:1]' },
      { line: 1, field_path: 'args.headers.Authorization', rule_id: 'sensitive-field', original_len: `Bearer ${PLANTED.bearer}`.length, token: '[REDACTED:sensitive-field:2]' },
      { line: 2, field_path: 'content', rule_id: 'github-token', original_len: PLANTED.github.length, token: '[REDACTED:github-token:3]' },
      { line: 3, field_path: 'args.password', rule_id: 'sensitive-field', original_len: PLANTED.password.length, token: '[REDACTED:sensitive-field:4]' },
      { line: 4, field_path: 'content<json>.client_secret', rule_id: 'sensitive-field', original_len: PLANTED.inner.length, token: '[REDACTED:sensitive-field:5]' },
    ]);
    for (const f of findings) expect(checkpoint.redactions.some((r) => r.line === f.line && f.message.startsWith(`${r.rule_id} `))).toBe(true);
    const verified = await cli(['verify', 't.sealed.jsonl', '--checkpoint', 't.sealed.jsonl.seal.json'], root);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('redactions: 5 value(s) replaced before sealing (receipts in the checkpoint)\n');
    // The redacted seal, audited again: no secret is left to find.
    const again = await cli(['audit', 't.sealed.jsonl', '--format', 'json', '--fail-on', 'never'], root);
    expect((JSON.parse(again.stdout) as { findings: Array<{ ruleId: string }> }).findings.filter((f) => f.ruleId === 'secret-in-trace')).toEqual([]);
  });

  it('redaction-policy-drift reads the receipts of two checkpoints like any other: another rule for the same field path', async () => {
    const call = (token: string) => jsonl({ kind: 'tool_call', run_id: 'r', call_id: 'c1', tool: 'deploy', args: { token } });
    const root = tempTree({ 'a.jsonl': call(PLANTED.github), 'b.jsonl': call(PLANTED.aws) });
    for (const name of ['a', 'b']) expect((await cli(['seal', `${name}.jsonl`, '--redact'], root)).code).toBe(0);
    const audit = await cli(['audit', 'a.sealed.jsonl.seal.json', 'b.sealed.jsonl.seal.json', '--format', 'json', '--fail-on', 'never'], root);
    const report = JSON.parse(audit.stdout) as { files: Array<{ path: string; format: string }>; findings: Array<{ ruleId: string; file: string; message: string }> };
    expect(report.files.map((f) => [f.path, f.format])).toEqual([
      ['a.sealed.jsonl.seal.json', 'seal-checkpoint'],
      ['b.sealed.jsonl.seal.json', 'seal-checkpoint'],
    ]);
    expect(report.findings.filter((f) => f.ruleId === 'redaction-policy-drift').map((f) => [f.file, f.message])).toEqual([
      ['b.sealed.jsonl.seal.json', "field_path 'args.token' redacted by rule 'aws-access-key' here, by 'github-token' in file 'a.sealed.jsonl.seal.json' (a.sealed.jsonl.seal.json:1)"],
    ]);
  });
});
