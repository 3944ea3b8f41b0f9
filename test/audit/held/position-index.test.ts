import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PositionIndex } from '../../../src/audit/held/position-index.js';

describe('PositionIndex (src/audit/held/position-index.ts): string keys to positions, the keys read back from the positions', () => {
  it('answers as a Map of first positions does, through growth and colliding hashes', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 300 }), fc.nat(50), (keys, expected) => {
        const index = new PositionIndex((at) => keys[at]!, expected);
        const first = new Map<string, number>();
        keys.forEach((key, at) => {
          expect(index.add(key, at)).toBe(first.get(key) ?? -1);
          if (!first.has(key)) first.set(key, at);
        });
        expect(index.size).toBe(first.size);
        for (const key of [...keys, 'absent', '']) expect(index.get(key)).toBe(first.get(key) ?? -1);
      }),
    );
  });

  it('keeps keys that are data (constructor, __proto__) and many of them apart', () => {
    const keys = ['constructor', '__proto__', 'toString', ...Array.from({ length: 5000 }, (_, i) => `call_${i}`)];
    const index = new PositionIndex((at) => keys[at]!, 0);
    keys.forEach((key, at) => expect(index.add(key, at)).toBe(-1));
    keys.forEach((key, at) => expect(index.get(key)).toBe(at));
    expect(index.get('call_5000')).toBe(-1);
  });
});
