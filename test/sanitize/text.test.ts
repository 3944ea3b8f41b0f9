import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeText } from '../../src/sanitize/text.js';
import { anySecret, filler } from '../secret-samples.js';

const GHP = `ghp_${'a1B2c3D4e5'.repeat(3)}XyZ789`;

describe('sanitizeText', () => {
  it('removes ANSI escapes, controls, bidi overrides and zero-width characters', () => {
    expect(sanitizeText('\u001b[31mred\u001b[0m \u202eevil\u202c a\u200bb\u0000c\u0007')).toBe('red evil abc');
  });

  it('flattens newlines and tabs unless asked to keep newlines', () => {
    expect(sanitizeText('a\r\nb\tc')).toBe('a b c');
    expect(sanitizeText('a\r\nb\tc', { keepNewlines: true })).toBe('a\nb c');
  });

  it('catches a secret split by a zero-width character or written as JSON escapes', () => {
    expect(sanitizeText(`x ${GHP.slice(0, 6)}\u200b${GHP.slice(6)}`)).toBe('x [REDACTED:github-token]');
    expect(sanitizeText(`{"q":"\\u0067${GHP.slice(1)}"}`)).toBe('{"q":"[REDACTED:github-token]"}');
  });

  it('caps at 200 characters by default with an ellipsis', () => {
    const out = sanitizeText('x'.repeat(500));
    expect(out).toBe(`${'x'.repeat(199)}…`);
  });

  it('never cuts a marker or a surrogate pair in half', () => {
    expect(sanitizeText(`${'a'.repeat(45)}${GHP}`, { maxChars: 50 })).toBe(`${'a'.repeat(45)}…`);
    expect(sanitizeText(`${'a'.repeat(40)} ${GHP}`, { maxChars: 60 })).toBe(`${'a'.repeat(40)} …`);
    expect(sanitizeText(`${'a'.repeat(48)}😀tail`, { maxChars: 50 })).toBe(`${'a'.repeat(48)}…`);
  });

  it('replaces lone surrogates', () => {
    expect(sanitizeText('a\ud800b')).toBe('a\ufffdb');
  });

  const messy = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.tuple(filler, anySecret, fc.constantFrom('', '\u200b', '\u001b[1m', '\n', '😀', '\\u0041'), filler).map(([a, s, junk, b]) => `${a}${junk} ${s.text} ${b}${junk}`),
    fc.array(anySecret, { maxLength: 4 }).map((list) => list.map((s) => s.text).join(' ')),
  );

  it('is idempotent (property, fixed seed)', () => {
    fc.assert(
      fc.property(messy, fc.integer({ min: 40, max: 260 }), fc.boolean(), (text, maxChars, keepNewlines) => {
        const once = sanitizeText(text, { maxChars, keepNewlines });
        expect(sanitizeText(once, { maxChars, keepNewlines })).toBe(once);
        expect(once.length).toBeLessThanOrEqual(maxChars);
        expect(once).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
        expect(once).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
        expect(once).not.toMatch(/\[REDACTED(?![^\]]*\])/);
      }),
      { seed: 42, numRuns: 2000 },
    );
  });

  it('shows no generated secret, whatever the cap (property, fixed seed)', () => {
    fc.assert(
      fc.property(filler, anySecret, fc.integer({ min: 40, max: 400 }), (before, sample, maxChars) => {
        expect(sanitizeText(`${before} ${sample.text}`, { maxChars })).not.toContain(sample.hidden);
      }),
      { seed: 7, numRuns: 1000 },
    );
  });

  it("neutralizes the runner's ##[command] form anywhere in the text, also when hidden by invisible characters", () => {
    expect(sanitizeText('see ##[add-mask]x')).toBe('see #\uff03[add-mask]x');
    expect(sanitizeText('###[error]y ##[##[')).toBe('##\uff03[error]y #\uff03[#\uff03[');
    expect(sanitizeText('#\u200b#[set-output name=a]b')).toBe('#\uff03[set-output name=a]b');
    expect(sanitizeText('\\u0023#[warning]z')).toBe('#\uff03[warning]z');
    expect(sanitizeText('a ## [b] #[c]')).toBe('a ## [b] #[c]');
  });

  it('never returns the ##[ form (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('#', '[', '\u200b', '\n', ' ', 'x', '\\u0023'), { maxLength: 30 }), (parts) => {
        expect(sanitizeText(parts.join(''), { keepNewlines: true })).not.toContain('##[');
      }),
      { seed: 11, numRuns: 1000 },
    );
  });
});
