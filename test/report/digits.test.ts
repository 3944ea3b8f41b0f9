import fc from 'fast-check';
import { expect, it } from 'vitest';
import { groupDigits } from '../../src/report/digits.js';

it('writes whole numbers as toLocaleString("en-US") does', () => {
  for (const n of [0, 1, 999, 1000, 12_345, 100_000, 1_000_000, -1, -1234, Number.MAX_SAFE_INTEGER, 1.5]) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  fc.assert(fc.property(fc.maxSafeInteger(), (n) => groupDigits(n) === n.toLocaleString('en-US')), { seed: 3, numRuns: 2000 });
});
