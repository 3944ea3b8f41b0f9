import { describe, expect, it } from 'vitest';
import { indexLines } from '../../src/ingest/json-locate.js';

describe('indexLines', () => {
  const text = ['{', '  "a": [', '    {"x": "}]\\"{"},', '    [1, 2],', '    {', '      "b\\u0022c": {}', '    }', '  ],', '  "d": {"e": [{}]}', '}'].join('\n');

  it('gives the line where each object or array begins, by path', () => {
    expect(JSON.parse(text)).toBeTruthy();
    const lineOf = indexLines(text, 4);
    expect([lineOf([]), lineOf(['a']), lineOf(['a', 0]), lineOf(['a', 1]), lineOf(['a', 2]), lineOf(['a', 2, 'b"c']), lineOf(['d']), lineOf(['d', 'e', 0])]).toEqual([1, 2, 3, 4, 5, 6, 9, 9]);
  });

  it('answers 1 for paths it did not index (too deep or absent)', () => {
    const lineOf = indexLines(text, 1);
    expect([lineOf(['a']), lineOf(['a', 2]), lineOf(['nope'])]).toEqual([2, 1, 1]);
  });
});
