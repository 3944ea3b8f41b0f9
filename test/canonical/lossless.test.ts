import { describe, expect, it } from 'vitest';
import { canonicalize, lossless, parseLossless, toPlain } from '../../src/canonical/index.js';

describe('parseLossless', () => {
  it('keeps number text, member order and agrees with JSON.parse on plain values', () => {
    const text = '{"b":1.0,"a":[1e+16,-0,"\\u00e9",true,null],"c":{"x":12345678901234567890}}';
    const value = parseLossless(text);
    expect(value).toEqual({
      kind: 'object',
      entries: [
        ['b', { kind: 'number', text: '1.0' }],
        ['a', [{ kind: 'number', text: '1e+16' }, { kind: 'number', text: '-0' }, 'é', true, null]],
        ['c', { kind: 'object', entries: [['x', { kind: 'number', text: '12345678901234567890' }]] }],
      ],
    });
    expect(JSON.stringify(toPlain(value))).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('rejects duplicate keys, trailing values, bad syntax and deep nesting', () => {
    expect(() => parseLossless('{"tool":"ls","tool":"rm"}')).toThrow('duplicate key "tool" at position 19');
    expect(() => parseLossless('{} {}')).toThrow('more than one JSON value');
    expect(() => parseLossless('[1,]')).toThrow('unexpected character "]"');
    expect(() => parseLossless('NaN')).toThrow('unexpected character "N"');
    expect(() => parseLossless('['.repeat(20) + ']'.repeat(20), 10)).toThrow('nesting deeper than 10');
  });

  it('JCS refuses integers that would lose digits and sorts keys by code unit', () => {
    expect(() => canonicalize(lossless(parseLossless('{"n":9007199254740993}')))).toThrow('integer 9007199254740993 is beyond 2^53');
    expect(canonicalize(lossless(parseLossless('{"b":1.0,"a":1e+16,"\\ud83d\\ude00":0,"\\uffff":0}')))).toBe('{"a":10000000000000000,"b":1,"😀":0,"\uffff":0}');
  });
});
