import { describe, expect, it } from 'vitest';
import { anyValue, otlpAttributes } from '../../../src/ingest/otel/span.js';

describe('OTLP AnyValue and attribute lists', () => {
  it('decodes every kind, nested lists and kvlists (a repeated key keeps its first place and takes the last value)', () => {
    const value = {
      kvlistValue: {
        values: [
          { key: 'a', value: { stringValue: 'x' } },
          { key: 'n', value: { intValue: '12' } },
          { key: 'list', value: { arrayValue: { values: [{ boolValue: true }, { doubleValue: '1.5' }, { kvlistValue: { values: [{ key: 'k', value: { bytesValue: 'AQ==' } }] } }] } } },
          { key: 'a', value: { string_value: 'y' } },
          { key: '__proto__', value: { stringValue: 'own' } },
          { nokey: true },
        ],
      },
    };
    const decoded = anyValue(value) as Record<string, unknown>;
    expect(Object.keys(decoded)).toEqual(['a', 'n', 'list', '__proto__']);
    expect(decoded['a']).toBe('y');
    expect(decoded['n']).toBe(12);
    expect(decoded['list']).toEqual([true, 1.5, { k: 'AQ==' }]);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value).toBe('own');
  });

  it('reads attributes into a Map in order, later duplicates winning; anything not a list is no attributes', () => {
    const attrs = otlpAttributes([
      { key: 'gen_ai.tool.name', value: { stringValue: 'ls' } },
      { key: 'x', value: { intValue: 'not a number' } },
      { key: 'gen_ai.tool.name', value: { stringValue: 'grep' } },
      'junk',
    ]);
    expect([...attrs]).toEqual([
      ['gen_ai.tool.name', 'grep'],
      ['x', 'not a number'],
    ]);
    expect(otlpAttributes({ key: 'a' }).size).toBe(0);
  });
});
