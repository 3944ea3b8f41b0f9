import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printableShare } from '../../src/sanitize/base64-secrets.js';
import { mayDecodeToText } from '../../src/sanitize/base64-text.js';

/** The share `decodeText` computes, from the string `Buffer` decodes (the reference the fast check must agree with). */
function bufferShare(body: string): number {
  return printableShare(Buffer.from(body, 'base64').toString('utf8'));
}

/** Bytes that exercise the UTF-8 reader: ASCII, controls, every kind of lead and continuation byte, cut sequences. */
const tricky = fc.constantFrom(0x00, 0x09, 0x0a, 0x1f, 0x20, 0x41, 0x7e, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xee, 0xef, 0xf0, 0xf4, 0xf5, 0xff);
const bytes = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 80 }),
  fc.array(tricky, { minLength: 1, maxLength: 40 }).map((a) => Uint8Array.from(a)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map((s) => new Uint8Array(Buffer.from(s))),
);
const alphabet = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-');

describe('mayDecodeToText reads base64 as Buffer does', () => {
  it('gives the same verdict as decoding with Buffer, at every share', () => {
    fc.assert(
      fc.property(bytes, fc.boolean(), fc.integer({ min: 0, max: 3 }), (data, urlSafe, cut) => {
        const encoded = Buffer.from(data).toString(urlSafe ? 'base64url' : 'base64').replace(/=+$/, '');
        // Cut at any offset too (a run glued to a label is decoded from later starts); a length of 1 mod 4 is never decoded.
        const body = encoded.slice(cut);
        if (body.length % 4 === 1 || body.length === 0) return;
        for (const share of [0.5, 0.9, 1]) expect(mayDecodeToText(body, share)).toBe(bufferShare(body) >= share && Buffer.from(body, 'base64').length > 0);
      }),
      { seed: 22, numRuns: 5000 },
    );
  });

  it('gives the same verdict on random base64 characters', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { minLength: 2, maxLength: 90 }), (chars) => {
        const body = chars.join('');
        if (body.length % 4 === 1) return;
        expect(mayDecodeToText(body, 0.9)).toBe(bufferShare(body) >= 0.9);
      }),
      { seed: 22, numRuns: 5000 },
    );
  });

  it('settles ids and hashes as noise and text as text', () => {
    expect(mayDecodeToText('0199a1c2-0000-7000-8000-000000000000', 0.9)).toBe(false);
    expect(mayDecodeToText('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 0.9)).toBe(false);
    // U+FFFD written out and C1 controls are valid UTF-8 but not text.
    for (const odd of ['\ufffd', '\u0085']) {
      const body = Buffer.from(`token=abc ${odd.repeat(4)}`).toString('base64').replace(/=+$/, '');
      expect(mayDecodeToText(body, 0.9)).toBe(false);
      expect(mayDecodeToText(body, 0.5)).toBe(true);
    }
    expect(mayDecodeToText(Buffer.from('x-access-token:abc, naïve café ✓').toString('base64').replace(/=+$/, ''), 0.9)).toBe(true);
  });
});
