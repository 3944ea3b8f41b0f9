import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesOf, redactSecrets, scanSecrets, SECRET_PATTERNS } from '../../src/sanitize/secrets.js';
import { SECRET_KINDS, filler } from '../secret-samples.js';

const GHP = `ghp_${'a1B2c3D4e5'.repeat(3)}XyZ789`;

describe('redactSecrets', () => {
  it.each([
    ['aws-access-key', 'key AKIAIOSFODNN7EXAMPLE in use', 'key [REDACTED:aws-access-key] in use'],
    ['github-token', `token ${GHP}.`, 'token [REDACTED:github-token].'],
    ['github-token after an underscore', `env_${GHP}`, 'env_[REDACTED:github-token]'],
    ['authorization keeps the header and scheme', 'Authorization: Bearer abcdef123456', 'Authorization: Bearer [REDACTED:authorization-header]'],
    ['authorization in JSON text', '{"Authorization":"Basic dXNlcjpwYXNz"}', '{"Authorization":"Basic [REDACTED:authorization-header]"}'],
    ['a whole cookie header', 'Cookie: a=1234567; b=secretvalue', 'Cookie: [REDACTED:cookie-header]'],
    ['url credentials keep scheme and host', 'postgres://app:s3cr@t-pw@db.internal:5432/x', 'postgres://[REDACTED:url-credentials]@db.internal:5432/x'],
    ['url secret parameter', 'GET /v1?page=2&api_key=abcd1234efgh', 'GET /v1?page=2&api_key=[REDACTED:url-secret-param]'],
    ['slack webhook', 'post to https://hooks.slack.com/services/T0000/B0000/XXXXXXXX now', 'post to [REDACTED:slack-webhook] now'],
    ['PEM key to its end line', 'k: -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY----- done', 'k: [REDACTED:private-key] done'],
    ['a PEM key cut short runs to the end', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg', '[REDACTED:private-key]'],
    ['token inside a git credential URL', `https://x-access-token:${GHP}@github.com/o/r`, 'https://[REDACTED:url-credentials]@github.com/o/r'],
  ])('%s', (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
    expect(redactSecrets(expected)).toBe(expected);
  });

  it('finds a secret inside base64 and redacts the whole blob', () => {
    const blob = Buffer.from(`x-access-token:${GHP.replace('ghp_', 'ghs_')}`).toString('base64');
    const { text, found } = scanSecrets(`credential ${blob} end`);
    expect(text).toBe('credential [REDACTED:base64-github-token] end');
    expect(found).toEqual([{ ruleId: 'base64-github-token', secret: blob }]);
  });

  it.each([
    ['a commit SHA', 'fix landed in 3f786850e387550fdab836ed7e6dc881de23001b today'],
    ['a UUID', 'request 123e4567-e89b-12d3-a456-426614174000 failed'],
    ['ordinary words', 'the authorization step and the token budget were fine; sk-learn-is-a-package'],
    ['base64 of ordinary text', Buffer.from('just some harmless words here, nothing secret at all').toString('base64')],
    ['base64 of binary', Buffer.from(Array.from({ length: 48 }, (_, i) => (i * 37) % 256)).toString('base64')],
    ['a short header value', 'Authorization: none'],
    ['a boolean query parameter', 'GET /v1?auth=true&verbose=false'],
    ['an AKIA-like word that is too long', 'AKIAIOSFODNN7EXAMPLEXX'],
    ['a sha256 hex digest', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ])('leaves %s alone', (_name, input) => {
    expect(scanSecrets(input).found).toEqual([]);
    expect(redactSecrets(input)).toBe(input);
  });

  for (const [kind, arbitrary] of Object.entries(SECRET_KINDS)) {
    it(`finds every generated ${kind} and reports the exact secret`, () => {
      fc.assert(
        fc.property(filler, arbitrary, filler, (before, sample, after) => {
          const { text, found } = scanSecrets(`${before} ${sample.text} ${after}`);
          expect(text).not.toContain(sample.hidden);
          expect(found).toContainEqual({ ruleId: sample.ruleId, secret: sample.fingerprinted });
        }),
        { seed: 4, numRuns: 100 },
      );
    });
  }
});

describe('matchesOf', () => {
  it('gives what matchAll gives, and refuses a pattern without the g flag (exec would find its first match forever)', () => {
    const text = `a ${GHP} b sk-ant-${'x'.repeat(24)} c AKIAIOSFODNN7EXAMPLE`;
    for (const pattern of SECRET_PATTERNS) {
      expect([...matchesOf(pattern, text)]).toEqual([...text.matchAll(pattern.regex)].map((m) => ({ index: m.index, text: m[0], keep: m[1] ?? '' })));
    }
    expect(() => [...matchesOf({ id: 'x', regex: /a/ }, 'aaa')]).toThrow(TypeError);
  });
});
