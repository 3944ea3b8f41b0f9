import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maybeSecret } from '../../src/sanitize/prefilter.js';
import { matchesOf, redactSecrets, scanSecrets } from '../../src/sanitize/secrets.js';
import { TOKEN_FORMAT_PATTERN, TOKEN_FORMATS, tokenFormatOf } from '../../src/sanitize/token-formats.js';
import { SECRET_KINDS } from '../secret-samples.js';

const DOC = readFileSync('docs/rules/secret-in-trace.md', 'utf8');
/** The pattern ids of the doc's token format table (its rows start with `` | `id` ``). */
const documented = [...DOC.matchAll(/^\| `([a-z0-9-]+)` \| /gm)].map((m) => m[1]!);

describe('prefixed token formats', () => {
  it('every format has a row in the rule doc and generated samples; the ids are distinct', () => {
    const ids = TOKEN_FORMATS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(45);
    for (const id of ids) {
      expect(documented, id).toContain(id);
      expect(SECRET_KINDS[id], id).toBeDefined();
    }
  });

  it.each(TOKEN_FORMATS.map((f) => f.id))('%s: each sample is found whole under its id, passes the prefilter, and is named by tokenFormatOf', (id) => {
    for (const sample of fc.sample(SECRET_KINDS[id]!, { seed: 7, numRuns: 25 })) {
      expect(maybeSecret(sample.text)).toBe(true);
      expect(tokenFormatOf(sample.text)).toBe(id);
      for (const around of [(t: string) => t, (t: string) => `"${t}"`, (t: string) => `Bearer ${t}.`, (t: string) => `TOKEN=${t}\n`]) {
        const { text, found } = scanSecrets(around(sample.text));
        expect(found).toEqual([{ ruleId: id, secret: sample.text }]);
        expect(text).toBe(around(`[REDACTED:${id}]`));
      }
    }
  });

  // The formats run only on the spans of token characters that hold 24 base64 characters in a row
  // (token-formats.ts): true only if every match is made of those characters and holds such a run.
  it.each(TOKEN_FORMATS.map((f) => f.id))('%s: each sample is token characters only and holds 24 base64 characters in a row', (id) => {
    for (const { text } of fc.sample(SECRET_KINDS[id]!, { seed: 11, numRuns: 50 })) {
      expect(text).toMatch(/^[A-Za-z0-9+/_=.-]+$/);
      expect(text).toMatch(/[A-Za-z0-9+/_-]{24}/);
    }
  });

  it('the spans give the matches the pattern gives over the whole text', () => {
    const sample = fc.constantFrom(...TOKEN_FORMATS.map((f) => f.id)).chain((id) => SECRET_KINDS[id]!).map((s) => s.text);
    const piece = fc.oneof(
      sample,
      // Cut short, glued to more token characters: near misses at every length.
      sample.chain((t) => fc.nat(t.length).map((n) => t.slice(0, n))),
      fc.string({ unit: fc.constantFrom(...'aZ09xf_-.=+/ "\n:\u00e9'), maxLength: 40 }),
    );
    const plain = (text: string) => [...text.matchAll(TOKEN_FORMAT_PATTERN.regex)].map((m) => ({ index: m.index, text: m[0], keep: m[1] ?? '' }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        expect([...matchesOf(TOKEN_FORMAT_PATTERN, text)]).toEqual(plain(text));
      }),
      { seed: 46, numRuns: 3000 },
    );
  });

  // Built from pieces, like the samples: words that share a prefix but are not tokens.
  const hex = (n: number) => 'a1b2c3d4e5f6'.repeat(12).slice(0, n);
  it.each([
    ['a Hugging Face model id', 'hf_' + 'internal/bert-base-uncased'],
    ['an identifier with hf_ inside', 'load_hf_' + 'model_from_cache_directory_quickly'],
    ['an npm config variable', 'npm_' + 'config_cache=/home/runner/.npm'],
    ['a GitLab word', 'glpat-' + 'short'],
    ['a SendGrid-like word', 'SG.' + 'short.text'],
    ['a twilio-like SK that is too short', 'SK' + hex(20)],
    ['a twilio-like SK glued to more hex', 'SK' + hex(40)],
    ['a cache key of an md5', 'cache-key-' + hex(32)],
    ['a key- word', 'key-' + 'value store'],
    ['a Notion-like secret_ word', 'secret_' + 'key_base is set'],
    ['a Databricks word', 'dapi' + '-docs and dapi' + hex(10)],
    ['a doppler-like config', 'dp.' + 'pt.short'],
    ['a vault word', 'hvs.' + 'short'],
    ['a stripe test word', 'sk_' + 'live_abc'],
    ['a shopify word', 'shpat_' + 'x'],
    ['a tailscale word', 'tskey-' + 'auth'],
    ['a google ya29 word', 'ya29.' + 'short'],
    ['a UUID and a SHA-256', `123e4567-e89b-12d3-a456-426614174000 ${'e3b0c44298fc1c149afbf4c8996fb924'.repeat(2)}`],
  ])('leaves %s alone', (_name, input) => {
    expect(scanSecrets(input).found).toEqual([]);
    expect(redactSecrets(input)).toBe(input);
  });
});
