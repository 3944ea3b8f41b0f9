import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalize,
  CanonicalError,
  compareCodePoints,
  compareUtf16,
  jsonText,
  parseLossless,
  sha256Hex,
  type LosslessValue,
} from '../../src/canonical/index.js';
import { pythonFloat } from '../../src/canonical/python.js';

const canonicalizeText = (text: string, mode: 'jcs' | 'python') => canonicalize(jsonText(text), mode);
const python = (value: unknown) => canonicalize(value, 'python');

interface Vector {
  readonly input: string;
  readonly python: string;
  readonly sha256: string;
}

// Written by scripts/gen-python-canonical-vectors.py with CPython; CI only reads the file.
const VECTORS: Vector[] = readFileSync('test/fixtures/canonical/python-vectors.jsonl', 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as Vector);

describe('python canonical form against CPython', () => {
  it('has the committed number of vectors, covering the traps', () => {
    expect(VECTORS.length).toBe(1200);
    const all = VECTORS.map((v) => v.python).join('\n');
    for (const trap of ['e+16', 'e-05', '-0.0', '\\ud83d\\ude00', '\\u0000', '\\u007f', '\\u2028', '12345678901234567890123']) expect(all).toContain(trap);
  });

  it('includes objects whose code-point key order differs from UTF-16 order', () => {
    const traps = (value: LosslessValue): number => {
      if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + traps(item), 0);
      if (value === null || typeof value !== 'object' || value.kind !== 'object') return 0;
      const keys = value.entries.map(([key]) => key);
      const differs = [...keys].sort(compareCodePoints).join('\0') !== [...keys].sort(compareUtf16).join('\0');
      return (differs ? 1 : 0) + value.entries.reduce((sum, [, item]) => sum + traps(item), 0);
    };
    expect(VECTORS.reduce((sum, vector) => sum + traps(parseLossless(vector.input)), 0)).toBe(67);
  });

  it('produces the same bytes and sha256 as CPython for every vector', () => {
    const failures: string[] = [];
    for (const [i, vector] of VECTORS.entries()) {
      const ours = canonicalizeText(vector.input, 'python');
      if (ours !== vector.python || sha256Hex(Buffer.from(ours, 'utf8')) !== vector.sha256) failures.push(`#${i}: ${vector.input}\n  want ${vector.python}\n  got  ${ours}`);
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });
});

describe('python canonical form details', () => {
  it('writes floats as repr does', () => {
    const cases: Array<[number, string]> = [
      [1, '1.0'], [-0, '-0.0'], [0, '0.0'], [1e16, '1e+16'], [1e15, '1000000000000000.0'], [1e-5, '1e-05'], [0.0001, '0.0001'],
      [0.1, '0.1'], [123.456, '123.456'], [5e-324, '5e-324'], [1.7976931348623157e308, '1.7976931348623157e+308'], [1.5e300, '1.5e+300'],
    ];
    for (const [value, text] of cases) expect(pythonFloat(value)).toBe(text);
    expect(() => pythonFloat(Infinity)).toThrow(CanonicalError);
    expect(() => python({ a: [NaN] })).toThrow('NaN has no JSON form at .a[0]');
  });

  it('reads plain JavaScript numbers: integral ones as ints', () => {
    expect(canonicalize({ b: 1.0, a: 1e16, c: 0.5 }, 'python')).toBe('{"a":10000000000000000,"b":1,"c":0.5}');
    expect(canonicalizeText('{"b":1.0,"a":1e16,"c":0.5}', 'python')).toBe('{"a":1e+16,"b":1.0,"c":0.5}');
  });

  it('sorts keys by code point, unlike JCS', () => {
    const text = '{"\\uffff":1,"\\ud83d\\ude00":2,"a":3}';
    expect(canonicalizeText(text, 'python')).toBe('{"a":3,"\\uffff":1,"\\ud83d\\ude00":2}');
    expect(canonicalizeText(text, 'jcs')).toBe('{"a":3,"😀":2,"\uffff":1}');
    expect(compareCodePoints('\uffff', '\u{1f600}')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
  });

  it('escapes as ensure_ascii does and keeps big ints exact', () => {
    expect(python('é\u0000\u001f\u007f"\\/\b\f\n\r\t😀')).toBe('"\\u00e9\\u0000\\u001f\\u007f\\"\\\\/\\b\\f\\n\\r\\t\\ud83d\\ude00"');
    expect(canonicalizeText('[12345678901234567890123,-0]', 'python')).toBe('[12345678901234567890123,0]');
    expect(() => canonicalizeText('1E400', 'python')).toThrow('Infinity has no JSON form');
    expect(python([])).toBe('[]');
    expect(parseLossless('[]')).toEqual([]);
  });
});

describe('python canonical form properties', () => {
  it('is a fixed point: canonical text read back losslessly canonicalizes to itself', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const once = canonicalize(value, 'python');
        expect(canonicalizeText(once, 'python')).toBe(once);
        expect(/^[\x20-\x7e]*$/.test(once)).toBe(true);
      }),
      { seed: 8785, numRuns: 500 },
    );
  });
});
