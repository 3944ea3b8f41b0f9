import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretsIn } from '../../src/audit/secrets/scan-memo.js';
import { mayHideEncoded } from '../../src/sanitize/decoded-view.js';
import { mayHoldSecret, maybeSecret } from '../../src/sanitize/prefilter.js';
import { scanSecrets, scanSecretsWith } from '../../src/sanitize/secrets.js';
import { anySecret } from '../secret-samples.js';

/**
 * The prefilter never skips a text the full scan would flag: over secrets of every kind
 * embedded in random text and encoded in each way the decoded view reads (and in base64),
 * the prefiltered scan gives exactly what the unfiltered one gives, and the gate of
 * secret-in-trace (`mayHoldSecret`, then `secretsIn`) lets every such text through.
 */

const unfiltered = (text: string) => scanSecretsWith(text, () => true);

const hex = (code: number) => `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
/** Each character escaped or not, by a mask (UTF-8 bytes for a non-ASCII one). */
const percentEncode = (text: string, mask: boolean[], twice: boolean) =>
  [...text]
    .map((ch, i) => {
      if (!mask[i % mask.length]) return ch;
      const escaped = [...Buffer.from(ch)].map(hex).join('');
      return twice ? escaped.replace(/%/g, '%25') : escaped;
    })
    .join('');
/** Printable ASCII as its fullwidth form (NFKC maps it back). */
const fullwidth = (text: string, mask: boolean[]) =>
  [...text].map((ch, i) => (mask[i % mask.length] && ch > ' ' && ch <= '~' ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch)).join('');
/** Letters and digits as mathematical bold ones (NFKC maps them back). */
const mathBold = (text: string) =>
  [...text]
    .map((ch) => {
      const c = ch.charCodeAt(0);
      if (c >= 0x41 && c <= 0x5a) return String.fromCodePoint(0x1d400 + c - 0x41);
      if (c >= 0x61 && c <= 0x7a) return String.fromCodePoint(0x1d41a + c - 0x61);
      if (c >= 0x30 && c <= 0x39) return String.fromCodePoint(0x1d7ce + c - 0x30);
      return ch;
    })
    .join('');

/** Each masked character as a JSON `\uXXXX` escape (a `/` as `\/`). */
const jsonEscape = (text: string, mask: boolean[]) =>
  [...text].map((ch, i) => (!mask[i % mask.length] ? ch : ch === '/' ? '\\/' : [...ch].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''))).join('');

const mask = fc.array(fc.boolean(), { minLength: 1, maxLength: 7 });
type Encode = (text: string) => string;
const encoding: fc.Arbitrary<Encode> = fc.oneof(
  fc.constant((t: string) => t),
  mask.map((m) => (t: string) => percentEncode(t, m, false)),
  mask.map((m) => (t: string) => percentEncode(t, m, true)),
  mask.map((m) => (t: string) => fullwidth(t, m)),
  fc.constant(mathBold),
  mask.map((m) => (t: string) => jsonEscape(t, m)),
  fc.constant((t: string) => JSON.stringify(t).slice(1, -1)),
  fc.constant((t: string) => Buffer.from(t).toString('base64')),
  fc.constant((t: string) => Buffer.from(`x-access-token:${t}`).toString('base64url')),
);

/** Random text around a secret: words, separators the patterns care about, escapes, non-ASCII. */
const noise = fc
  .array(fc.constantFrom('the', 'ok', ' ', '\n', ':', '=', '"', "'", '/', '.', '-', '_', '?', '&', '@', '%', '%2', 'a1', 'Z', 'é', 'ｘ', '\u00a0', 'key', 'token', '\\n', '\\"', '\\u00', '\\'), { maxLength: 8 })
  .map((parts) => parts.join(''));

/**
 * The shortest match of each pattern the base64 run does not cover (the samples are
 * longer: most of them hold a run of 24 token characters whatever their kind).
 */
const SHORTEST = [
  'xoxb-1234567890', 'xoxe-1234567890', 'xapp-12345abcde', 'AKIAIOSFODNN7EXAMPLE', 'ASIAIOSFODNN7EXAMPLE', 'ABIAIOSFODNN7EXAMPLE', 'ACCAIOSFODNN7EXAMPLE', 'eyJabcdefgh.eyJabcdefgh.', '-----BEGIN PRIVATE KEY-----',
  'Cookie: abc', 'set-cookie=abc', 'Authorization: abcdef', 'x-api-key:abcdef', 'Private-Token= abcdef', 'a://b:c@', '?key=abcdef', '&Sig=abcdef',
];
const secret = fc.oneof(anySecret.map((sample) => sample.text), fc.constantFrom(...SHORTEST));

const embedded = fc
  .tuple(noise, secret, noise, encoding, fc.boolean())
  .map(([before, text, after, encode, wholeText]) => (wholeText ? encode(`${before}${text}${after}`) : `${before}${encode(text)}${after}`));

describe('the secret prefilter', () => {
  it('never changes what the scan finds or redacts (secrets embedded in random text, encoded)', () => {
    let flagged = 0;
    fc.assert(
      fc.property(embedded, (text) => {
        const full = unfiltered(text);
        expect(scanSecrets(text)).toEqual(full);
        if (full.found.length > 0) {
          flagged += 1;
          expect(mayHoldSecret(text)).toBe(true);
        }
        expect(secretsIn(text)).toEqual(full.found);
        expect(secretsIn(text)).toEqual(full.found); // the remembered scan
        expect(mayHoldSecret(text)).toBe(maybeSecret(text) || mayHideEncoded(text));
      }),
      { seed: 22, numRuns: 3000 },
    );
    // The texts are meant to hold secrets: most of them must (a generator gone wrong would pass vacuously).
    expect(flagged).toBeGreaterThan(2000);
  });

  it('never changes the scan of arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), noise), (text) => {
        expect(scanSecrets(text)).toEqual(unfiltered(text));
        expect(secretsIn(text)).toEqual(unfiltered(text).found);
        // The gate of secret-in-trace is its two halves, in one pass.
        expect(mayHoldSecret(text)).toBe(maybeSecret(text) || mayHideEncoded(text));
      }),
      { seed: 22, numRuns: 3000 },
    );
  });

  it('finds a run of 24 base64 characters wherever it stands (the skipping search against a regex)', () => {
    // No literal the prefilter looks for can be built from these characters: only the run decides.
    const run = /[A-Za-z0-9+/_]{24}/;
    const text = fc.array(fc.constantFrom('a', 'Z', '9', '/', '+', '_', ' ', '.', 'é', 'aaaaaaa', '/////'), { maxLength: 60 }).map((p) => p.join(''));
    fc.assert(fc.property(text, (t) => {
      expect(maybeSecret(t)).toBe(run.test(t));
    }), { seed: 22, numRuns: 5000 });
    for (let n = 0; n < 60; n += 1) {
      for (let at = 0; at + n <= 60; at += 7) {
        const t = `${' '.repeat(at)}${'a'.repeat(n)}${' '.repeat(60 - at - n)}`;
        expect(maybeSecret(t), `a run of ${n} at ${at}`).toBe(n >= 24);
      }
    }
  });

  it('lets the shortest match of each pattern through', () => {
    for (const text of SHORTEST) {
      expect(scanSecrets(text).found, text).toHaveLength(1);
      expect(maybeSecret(text), text).toBe(true);
    }
  });

  it('settles ordinary trace strings without the patterns', () => {
    for (const text of ['src/module_15.ts', 'the module returns value for test', '2026-01-08T09:00:03.028Z', 'exit code 1: not found', 'a=1 b=2']) {
      expect(maybeSecret(text), text).toBe(false);
    }
  });
});
