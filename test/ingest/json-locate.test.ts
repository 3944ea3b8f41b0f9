import { describe, expect, it } from 'vitest';
import { indexLines } from '../../src/ingest/read/json-locate.js';

describe('indexLines', () => {
  const text = ['{', '  "a": [', '    {"x": "}]\\"{"},', '    [1, 2],', '    {', '      "b\\u0022c": {}', '    }', '  ],', '  "d": {"e": [{}]}', '}'].join('\n');

  it('gives the line where each object or array begins, by path', () => {
    expect(JSON.parse(text)).toBeTruthy();
    const lineOf = indexLines(text, 4);
    expect([lineOf([]), lineOf(['a']), lineOf(['a', 0]), lineOf(['a', 1]), lineOf(['a', 2]), lineOf(['a', 2, 'b"c']), lineOf(['d']), lineOf(['d', 'e', 0])]).toEqual([1, 2, 3, 4, 5, 6, 9, 9]);
  });

  it('ends strings at the right quote whatever backslashes come before it', () => {
    // Values ending in an even run of backslashes, escaped quotes next to brackets, a key with a backslash.
    const tricky = ['{', '  "p": "a\\\\",', '  "q": "\\"}\\\\\\"[",', '  "k\\\\y": [', '    {"v": "\\\\\\\\"},', '    {}', '  ],', '  "r": {}', '}'].join('\n');
    const value = JSON.parse(tricky) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['p', 'q', 'k\\y', 'r']);
    const lineOf = indexLines(tricky, 4);
    expect([lineOf(['k\\y']), lineOf(['k\\y', 0]), lineOf(['k\\y', 1]), lineOf(['r'])]).toEqual([4, 5, 6, 8]);
  });

  it('answers 1 for paths it did not index (too deep or absent)', () => {
    const lineOf = indexLines(text, 1);
    expect([lineOf(['a']), lineOf(['a', 2]), lineOf(['nope'])]).toEqual([2, 1, 1]);
  });
});
