import { describe, expect, it } from 'vitest';
import { scanSecrets } from '../../../src/sanitize/secrets.js';
import { sanitizeText } from '../../../src/sanitize/text.js';
import { tempTree } from '../../helpers.js';
import { auditJson, runInProcess } from '../audit-cli.js';

// Built from pieces so no real-looking token is committed (see test/secret-samples.ts).
const BODY = `${'a1B2c3D4e5'.repeat(3)}XyZ789`;
const GHP = `ghp_${BODY}`;
const FULLWIDTH = (s: string) => [...s].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');

describe('secrets behind an encoding are redacted and reported', () => {
  it.each([
    ['a URL-encoded letter', `see gh%70_${BODY} now`, 'see [REDACTED:github-token] now', 'github-token', GHP],
    ['a doubly URL-encoded letter', `see gh%2570_${BODY} now`, 'see [REDACTED:github-token] now', 'github-token', GHP],
    ['fullwidth letters (NFKC)', `see ${FULLWIDTH(GHP)} now`, 'see [REDACTED:github-token] now', 'github-token', GHP],
    ['a URL-encoded header', 'h=Authorization%3A%20Bearer%20abcdefgh12345 sent', 'h=Authorization%3A%20Bearer%20[REDACTED:authorization-header] sent', 'authorization-header', 'abcdefgh12345'],
    ['AKIA glued to following letters', 'id AKIAIOSFODNN7EXAMPLEsecret', 'id [REDACTED:aws-access-key]secret', 'aws-access-key', 'AKIAIOSFODNN7EXAMPLE'],
    ['a github token longer than 255', `t ${GHP}${'x'.repeat(300)}`, `t [REDACTED:github-token]${'x'.repeat(300 - 219)}`, 'github-token', `${GHP}${'x'.repeat(219)}`],
  ])('%s', (_name, input, redacted, ruleId, secret) => {
    const { text, found } = scanSecrets(input);
    expect(text).toBe(redacted);
    expect(found).toContainEqual({ ruleId, secret });
    expect(sanitizeText(input, { maxChars: 400 })).toBe(redacted);
    expect(scanSecrets(redacted).found).toEqual([]);
  });

  it('leaves encoded text without a secret alone', () => {
    for (const text of ['100%25 done, a%20b', 'ｆｕｌｌｗｉｄｔｈ words', 'path%2Fto%2Ffile?x=1']) {
      expect(scanSecrets(text)).toEqual({ text, found: [] });
    }
  });
});

describe('secret-in-trace flags the encoded secrets, and no report shows them', () => {
  it('one finding per encoded secret, none of them in the JSON or markdown report', async () => {
    const secrets = [`gh%70_${BODY}`, FULLWIDTH(GHP), 'AKIAIOSFODNN7EXAMPLEsecret', 'Authorization%3A%20Bearer%20abcdefgh12345'];
    const lines = secrets.map((s, i) => JSON.stringify({ run_id: 'r1', kind: 'tool_call', call_id: `c${i}`, tool: 'fetch', args: { url: `https://example.com/?q=${s}` } }));
    lines.push(...secrets.map((_s, i) => JSON.stringify({ run_id: 'r1', kind: 'tool_result', call_id: `c${i}`, tool: 'fetch', result: { ok: true } })));
    const root = tempTree({ 'enc.jsonl': `${lines.join('\n')}\n` });
    const { report } = await auditJson(['enc.jsonl'], [], root);
    const hits = report.findings.filter((f) => f.ruleId === 'secret-in-trace').map((f) => `${f.line} ${f.message.replace(/ \(fingerprint [0-9a-f]+\)/, '')}`);
    expect(hits).toEqual([
      "1 github-token in arguments of call 'c0' at 'args.url'",
      "2 github-token in arguments of call 'c1' at 'args.url'",
      "3 aws-access-key in arguments of call 'c2' at 'args.url'",
      "4 authorization-header in arguments of call 'c3' at 'args.url'",
    ]);
    const md = (await runInProcess(['audit', 'enc.jsonl', '--format', 'markdown', '--jobs', '1'], root)).stdout;
    for (const shown of [JSON.stringify(report), md]) {
      for (const piece of [BODY, FULLWIDTH(BODY).slice(0, 8), 'IOSFODNN7EXAMPLE', 'abcdefgh12345']) expect(shown).not.toContain(piece);
    }
  });
});
