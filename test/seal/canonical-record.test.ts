import { describe, expect, it } from 'vitest';
import { sealText } from '../../src/seal/index.js';
import { canonicalRecord } from '../../src/seal/canonical-record.js';

const canon = (text: string) => canonicalRecord(text, 'trace.jsonl', 7, 'jcs', 256);

describe('canonicalRecord', () => {
  it('writes the RFC 8785 form of a record', () => {
    expect(canon('{"b": 1.50, "a": [1E-7, 1e21, -0, 100], "é": "\\u00e9\\n", "A": {}}')).toBe('{"A":{},"a":[1e-7,1e+21,0,100],"b":1.5,"é":"é\\n"}');
  });

  it.each([
    ['{"tool":"ls","tool":"rm"}', 'seal-not-json', 'trace.jsonl:7: not a JSON record (duplicate key "tool" at position 19)'],
    ['{"a":{"x":1,"x":2}}', 'seal-not-json', 'trace.jsonl:7: not a JSON record (duplicate key "x" at position 15)'],
    ['{"n": NaN}', 'seal-not-json', 'trace.jsonl:7: not a JSON record (unexpected character "N" at position 6)'],
    ['{"n": 9007199254740993}', 'seal-unrepresentable', 'trace.jsonl:7: cannot be sealed in jcs form: integer 9007199254740993 is beyond 2^53 and would lose digits at .n'],
    ['{"n": 1e400}', 'seal-unrepresentable', 'trace.jsonl:7: cannot be sealed in jcs form: 1e400 is out of the range of a double at .n'],
    ['{"s": ["\\ud800"]}', 'seal-unrepresentable', 'trace.jsonl:7: cannot be sealed in jcs form: a lone surrogate has no canonical form at .s[0]'],
    ['{"\\udc00": 1}', 'seal-unrepresentable', 'trace.jsonl:7: cannot be sealed in jcs form: a lone surrogate in a key has no canonical form at the top level'],
    ['[1, 2]', 'seal-not-object', 'trace.jsonl:7: a record must be a JSON object, not an array'],
    ['42', 'seal-not-object', 'trace.jsonl:7: a record must be a JSON object, not a number'],
    ['"text"', 'seal-not-object', 'trace.jsonl:7: a record must be a JSON object, not a string'],
    ['{"prev": "x", "tool": "ls"}', 'seal-reserved-field', 'trace.jsonl:7: the record already has a "prev" field, which sealing adds (is the file sealed already?)'],
    ['{"digest": "x"}', 'seal-reserved-field', 'trace.jsonl:7: the record already has a "digest" field, which sealing adds (is the file sealed already?)'],
  ])('refuses %s with a message naming file and line', (text, code, message) => {
    expect(() => canon(text)).toThrow(expect.objectContaining({ code, message, file: 'trace.jsonl', line: 7 }));
  });

  it('keeps keys that are special to JavaScript objects as plain data', () => {
    expect(canon('{"__proto__": {"polluted": true}, "constructor": 1, "toString": []}')).toBe('{"__proto__":{"polluted":true},"constructor":1,"toString":[]}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('allows prev and digest below the top level', () => {
    expect(canon('{"args": {"prev": 1, "digest": 2}}')).toBe('{"args":{"digest":2,"prev":1}}');
  });

  it('the python form keeps float lexemes, exact big integers and ASCII escapes', () => {
    expect(canonicalRecord('{"b": 1.0, "a": "é", "t": 1700000000123456789, "n": 1e16}', 'trace.jsonl', 1, 'python', 256)).toBe(
      '{"a":"\\u00e9","b":1.0,"n":1e+16,"t":1700000000123456789}',
    );
    expect(() => canonicalRecord('{"t": 1700000000123456789}', 'trace.jsonl', 1, 'jcs', 256)).toThrow('cannot be sealed in jcs form');
  });
});

describe('sealText', () => {
  it('skips blank lines, keeps positions in sealing order, and names the source line of a bad record', () => {
    const sealed = sealText('{"a":1}\n\n   \n{"b":2}\r\n', 'x.jsonl');
    expect(sealed.records).toBe(2);
    expect(sealed.sealed.split('\n').map((l) => l.slice(0, 9))).toEqual(['{"prev":"', '{"prev":"', '']);
    expect(() => sealText('{"a":1}\n\n{"a":1,"a":2}\n', 'x.jsonl')).toThrow('x.jsonl:3: not a JSON record (duplicate key "a" at position 10)');
  });
});
