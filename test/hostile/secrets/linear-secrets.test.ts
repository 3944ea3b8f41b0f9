import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedView } from '../../../src/sanitize/decoded-view.js';
import { mayHoldSecret, maybeSecret } from '../../../src/sanitize/prefilter.js';
import { matchesOf, scanSecrets, SECRET_PATTERNS } from '../../../src/sanitize/secrets.js';
import { sanitizeText } from '../../../src/sanitize/text.js';

/**
 * Every secret pattern is linear: on 1 MB of adversarial text (a unit built from the
 * patterns' own literal parts and separators, repeated, then a tail that almost
 * completes a match) each takes a few milliseconds. The issue's bound is 100 ms per
 * pattern; the assertion allows 300 ms (the best of two timings) for a loaded 2-core
 * machine, while a quadratic pattern takes seconds to minutes on this much text.
 */
const SIZE = 1 << 20;
const LIMIT_MS = 300;
/** The whole scan runs all 15 patterns (up to 4 rounds when they keep matching), the base64 pass and the decoded view. */
const SCAN_LIMIT_MS = 2000;

const TOKENS = [
  '-----BEGIN ', 'RSA ', 'PRIVATE KEY', '-----', 'ghp_', 'github_pat_', 'sk-ant-', 'sk-', 'proj-', 'AKIA', 'xoxb-', 'xapp-',
  'hooks.slack.com/services/', 'AIza', 'sk_live_', 'whsec_', 'eyJ', '-eyJ', 'aws_secret_key', 'cookie', 'authorization', 'Bearer',
  '://', ' ://', 'a.', '?token=', '&key=', '%70', '%2', '%', 'ｇ', '＿', '=', ':', '@', '.', ' ', '\t', '\n', 'a', 'A', '0', '_', '-', '/',
  '"', "'", ';', '\\u0041', '\\u005c', '\\', 'x'.repeat(40),
  // The token formats' leads, which may now start anywhere in a word, and the JSON escapes the decoded view reads.
  'hf_', 'np' + 'm_', 'gl' + 'pat-', 'S' + 'G.', 'S' + 'K', 'ke' + 'y-', '.atlas' + 'v1.', 'EA' + 'AA', 'ts' + 'key-', 'sk-' + 'lf-', 'se' + 'cret_', 'ATA' + 'TT3', '\\n', '\\"', '\\/',
];

const unit = fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
const adversarial = fc.tuple(unit, fc.constantFrom(...TOKENS)).map(([u, tail]) => u.repeat(Math.ceil(SIZE / u.length)).slice(0, SIZE) + tail);

/** The reported attacks, and one per pattern that leaves a match one character short. */
const KNOWN = ['-eyJ', 'a.', 'eyJaaaaaaaa.', 'a://b:c', 'authorization: ', 'cookie= ', 'AKIA', 'ghp_a', '%25', '\\u005c', '-----BEGIN A', 'hf_' + 'a'.repeat(33), 'tskey-' + 'a'.repeat(40), 'aaaaaaaaaaaaaa.atlas' + 'v1.', '\\"'].map(
  (u) => `${u.repeat(Math.ceil(SIZE / u.length)).slice(0, SIZE)} ://`,
);

function bestOf2(work: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 2; i += 1) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const worst = new Map<string, number>();
function timed(name: string, work: () => void, limit = LIMIT_MS): void {
  const ms = bestOf2(work);
  worst.set(name, Math.max(worst.get(name) ?? 0, ms));
  expect(ms, `${name} took ${ms.toFixed(1)} ms`).toBeLessThanOrEqual(limit);
}

/** The matches of one pattern, as the scan finds them (the token formats through their fast scan). */
function eachMatch(pattern: (typeof SECRET_PATTERNS)[number], text: string): number {
  let n = 0;
  for (const _match of matchesOf(pattern, text)) n += 1;
  return n;
}

describe('secret patterns on 1 MB of adversarial text', () => {
  for (const pattern of SECRET_PATTERNS) {
    const { id } = pattern;
    it(`${id} is linear`, () => {
      for (const text of KNOWN) timed(id, () => eachMatch(pattern, text));
      fc.assert(fc.property(adversarial, (text) => timed(id, () => eachMatch(pattern, text))), { seed: 24, numRuns: 12 });
    }, 120_000);
  }
  it('prints the worst time of each pattern', () => {
    console.log([...worst].map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`).join(', '));
    expect(worst.size).toBe(SECRET_PATTERNS.length);
  });
  {
  }

  it('the whole scan (prefilter, rounds, base64, decoded view) and sanitizeText are linear', () => {
    for (const text of KNOWN) {
      timed('maybeSecret', () => maybeSecret(text));
      timed('mayHoldSecret', () => mayHoldSecret(text));
      timed('decodedView', () => decodedView(text));
      timed('scanSecrets', () => scanSecrets(text), SCAN_LIMIT_MS);
      timed('sanitizeText', () => sanitizeText(text));
    }
    fc.assert(
      fc.property(adversarial, (text) => {
        timed('mayHoldSecret', () => mayHoldSecret(text));
        timed('scanSecrets', () => scanSecrets(text), SCAN_LIMIT_MS);
        timed('sanitizeText', () => sanitizeText(text, { maxChars: 400, keepNewlines: true }));
      }),
      { seed: 24, numRuns: 8 },
    );
    // The measured worst cases, for the record.
    console.log([...worst].map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`).join(', '));
  }, 240_000);

  it('sanitizeText reads only a window of a huge text', () => {
    const huge = `start ${'\\u005c'.repeat(2_000_000)}`;
    const ms = bestOf2(() => sanitizeText(huge));
    expect(ms).toBeLessThanOrEqual(LIMIT_MS);
    expect(sanitizeText(huge)).toHaveLength(200);
    expect(sanitizeText(`${'\u0001'.repeat(100_000)}tail`)).toBe('…');
  });
});
