import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOKEN_FORMATS } from '../../src/sanitize/token-formats.js';
import { tempTree } from '../helpers.js';
import { cli } from '../cli/run-cli.js';
import { SECRET_KINDS } from '../secret-samples.js';

// `seal --redact` on one secret of every token format and every named detector, each written plain,
// after `_`, and with JSON escapes (the first character as `\uXXXX` and `/` as `\/`; the whole token
// as `\uXXXX` escapes; inside a JSON string held in a string, its quotes escaped): the sealed file
// and its checkpoint hold none of them, one receipt names each, and `verify` says intact.

const NAMED = ['github-token', 'anthropic-key', 'openai-key', 'aws-access-key', 'slack-token', 'google-api-key', 'stripe-key'];
const KINDS = [...TOKEN_FORMATS.map((f) => f.id), ...NAMED];
const SAMPLES = KINDS.map((id) => fc.sample(SECRET_KINDS[id]!, { seed: 445, numRuns: 1 })[0]!);

const hex4 = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
const slashes = (t: string) => t.replace(/\//g, '\\/');

/** Each placement: the field it stands in, and the raw JSON line written by hand (a test of the escapes, not of JSON.stringify). */
const PLACEMENTS: ReadonlyArray<readonly [string, string, (t: string) => string]> = [
  ['plain', 'content', (t) => `{"kind":"tool_result","run_id":"r","call_id":"c","content":"pushed with ${t} ok"}`],
  ['after _', 'tool', (t) => `{"kind":"tool_call","run_id":"r","call_id":"c","tool":"tool_${t}","args":{}}`],
  ['first character escaped', 'content', (t) => `{"kind":"tool_result","run_id":"r","call_id":"c","content":"${hex4(t)}${slashes(t.slice(1))}"}`],
  ['whole token escaped', 'error', (t) => `{"kind":"tool_result","run_id":"r","call_id":"c","error":"${[...t].map(hex4).join('')}"}`],
  ['escaped quotes, escaped once more', 'content<json>.note', (t) => `{"kind":"tool_result","run_id":"r","call_id":"c","content":"{\\"note\\": \\"x_${hex4(t).replace('\\', '\\\\')}${slashes(t.slice(1))}\\"}"}`],
];

describe('seal --redact finds secrets however the JSON line writes them', () => {
  it(`one secret of each of ${KINDS.length} kinds in ${PLACEMENTS.length} placements: none left in the sealed file or checkpoint, a receipt each, verify intact`, async () => {
    const lines: string[] = [];
    const expected: Array<{ line: number; field_path: string; rule_id: string }> = [];
    for (const [i, sample] of SAMPLES.entries()) {
      expect(sample.ruleId).toBe(KINDS[i]);
      for (const [, field, write] of PLACEMENTS) {
        const line = write(sample.text);
        expect(JSON.parse(line)).toBeTypeOf('object');
        lines.push(line);
        expected.push({ line: lines.length, field_path: field, rule_id: sample.ruleId });
      }
    }
    const root = tempTree({ 't.jsonl': `${lines.join('\n')}\n` });
    // The audit reads every one of them (so the check below could fail).
    const audit = await cli(['audit', 't.jsonl', '--format', 'json', '--fail-on', 'never'], root);
    const found = (JSON.parse(audit.stdout) as { findings: Array<{ ruleId: string; line: number }> }).findings.filter((f) => f.ruleId === 'secret-in-trace');
    expect(found.map((f) => f.line)).toEqual(expected.map((e) => e.line));

    const sealed = await cli(['seal', 't.jsonl', '--redact'], root);
    expect(sealed.stderr).toBe('');
    expect(sealed.code).toBe(0);
    expect(sealed.stdout).toContain(`redacted: ${expected.length} value(s) replaced before sealing, one receipt each in the checkpoint (t.sealed.jsonl.seal.json)\n`);
    const chain = readFileSync(join(root, 't.sealed.jsonl'), 'utf8');
    const checkpointText = readFileSync(join(root, 't.sealed.jsonl.seal.json'), 'utf8');
    for (const { ruleId, text } of SAMPLES) {
      for (const [name, , write] of PLACEMENTS) {
        const raw = write(text);
        const written = raw.slice(raw.lastIndexOf(':"') + 2);
        for (const [what, bytes] of [['sealed file', chain], ['checkpoint', checkpointText]] as const) {
          expect(bytes.includes(text), `${ruleId} ${name} in the ${what}`).toBe(false);
          expect(bytes.includes(written), `${ruleId} ${name} (as written) in the ${what}`).toBe(false);
        }
      }
    }
    const checkpoint = JSON.parse(checkpointText) as { redactions: Array<{ line: number; field_path: string; rule_id: string; token: string }> };
    expect(checkpoint.redactions.map(({ line, field_path, rule_id }) => ({ line, field_path, rule_id }))).toEqual(expected);
    expect(checkpoint.redactions.map((r) => r.token)).toEqual(expected.map((e, i) => `[REDACTED:${e.rule_id}:${i + 1}]`));

    const verified = await cli(['verify', 't.sealed.jsonl', '--checkpoint', 't.sealed.jsonl.seal.json'], root);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('intact');
    expect(verified.stdout).toContain(`redactions: ${expected.length} value(s) replaced before sealing (receipts in the checkpoint)\n`);
    // Audited again, the sealed file holds nothing to find.
    const again = await cli(['audit', 't.sealed.jsonl', '--format', 'json', '--fail-on', 'never'], root);
    expect((JSON.parse(again.stdout) as { findings: Array<{ ruleId: string }> }).findings.filter((f) => f.ruleId === 'secret-in-trace')).toEqual([]);
  }, 120_000);

  it('a sensitive field written with other escapes (PHP `\\/`, Python `\\u00e9`) and an escaped token on a line that is no JSON are replaced too', async () => {
    const aws = SAMPLES[KINDS.indexOf('aws-access-key')]!.text;
    const lines = [
      '{"kind":"tool_call","run_id":"r","call_id":"c","tool":"login","args":{"password":"h\\/nter2-\\u00e9t\\u00e9"}}',
      `{"broken": "\\u0041${aws.slice(1)}`,
    ];
    const root = tempTree({ 't.jsonl': `${lines.join('\n')}\n` });
    const sealed = await cli(['seal', 't.jsonl', '--redact', '--skip-unsealable'], root);
    expect(sealed.code).toBe(0);
    const chain = readFileSync(join(root, 't.sealed.jsonl'), 'utf8');
    const checkpointText = readFileSync(join(root, 't.sealed.jsonl.seal.json'), 'utf8');
    const checkpoint = JSON.parse(checkpointText) as { redactions: Array<{ line: number; field_path: string; rule_id: string; original_len: number }> };
    expect(checkpoint.redactions.map(({ line, field_path, rule_id, original_len }) => ({ line, field_path, rule_id, original_len }))).toEqual([
      { line: 1, field_path: 'args.password', rule_id: 'sensitive-field', original_len: Buffer.byteLength('h/nter2-\u00e9t\u00e9') },
      { line: 2, field_path: 'line 2', rule_id: 'aws-access-key', original_len: 25 },
    ]);
    for (const bytes of [chain, checkpointText]) {
      for (const gone of ['nter2', aws, aws.slice(1)]) expect(bytes).not.toContain(gone);
    }
  });
});
