import { describe, expect, it } from 'vitest';
import { formatLink, linkDigest, ZERO_DIGEST } from '../../src/seal/index.js';
import { LinkWriter, linkBytes } from '../../src/seal/layout.js';

/** The link as layout.ts documents it, built from strings. */
const expected = (prev: string, index: number, body: string) => `${formatLink(prev, linkDigest(prev, index, body), body)}\n`;

const BODIES = ['{}', '{"a":1}', '{"é":"世界😀","\\u2028":"\u2028"}', `{"k":"${'x'.repeat(5000)}"}`, `{"k":"${'é'.repeat(3000)}"}`];

describe('LinkWriter', () => {
  it('writes the bytes and digest of formatLink and linkDigest, for any index and body', () => {
    for (const index of [0, 9, 10, 99, 100, 123456789, Number.MAX_SAFE_INTEGER]) {
      for (const body of BODIES) {
        const prev = linkDigest(ZERO_DIGEST, index, body);
        const writer = new LinkWriter(64);
        const digest = writer.append(prev, index, body);
        expect(digest).toBe(linkDigest(prev, index, body));
        const bytes = writer.take();
        expect(bytes.toString('utf8')).toBe(expected(prev, index, body));
        expect(bytes.length).toBe(linkBytes(Buffer.byteLength(body)));
      }
    }
  });

  it('keeps earlier links when it grows, and starts empty after take', () => {
    const writer = new LinkWriter(200);
    let prev = ZERO_DIGEST;
    let text = '';
    for (let i = 0; i < 40; i += 1) {
      const body = BODIES[i % BODIES.length]!;
      text += expected(prev, i, body);
      prev = writer.append(prev, i, body);
    }
    expect(writer.length).toBe(Buffer.byteLength(text));
    expect(writer.take().toString('utf8')).toBe(text);
    expect(writer.length).toBe(0);
    writer.append(prev, 40, '{}');
    expect(writer.take().toString('utf8')).toBe(expected(prev, 40, '{}'));
  });
});
