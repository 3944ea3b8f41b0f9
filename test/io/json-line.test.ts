import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/gen-span-log.mjs';
import { countTextKeys, JsonLineError, parseJsonLine } from '../../src/io/json-line.js';

type Built = { text: string; duplicate: boolean; keys: number };

const KEYS = ['a', 'b', 'run_id', 'x"y', 'p\\', 'q\\"', '":', 'é', 'c d'];
const STRINGS = ['', 'plain', 'say "hi" there', 'a": 1', 'back\\', '\\" ', 'tab\there', '" ', '{"k": "v"}', 'ünï'];
const SPACES = [
  { colon: ':', comma: ',' },
  { colon: ': ', comma: ', ' },
  { colon: ' : ', comma: ' , ' },
  { colon: '\t:\t', comma: '\r\n,' },
];

/** A random JSON text and whether it repeats a key in one object, known from how it was built. */
function build(rand: () => number, depth: number, space: (typeof SPACES)[number]): Built {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const value = (): Built => {
    const r = rand();
    if (depth > 0 && r < 0.25) return build(rand, depth - 1, space);
    if (depth > 0 && r < 0.35) {
      const items = Array.from({ length: Math.floor(rand() * 3) }, () => build(rand, depth - 1, space));
      return { text: `[${items.map((i) => i.text).join(space.comma)}]`, duplicate: items.some((i) => i.duplicate), keys: items.reduce((n, i) => n + i.keys, 0) };
    }
    if (r < 0.7) return { text: JSON.stringify(pick(STRINGS)), duplicate: false, keys: 0 };
    return { text: pick(['1', '-2.5e3', 'true', 'null']), duplicate: false, keys: 0 };
  };
  const count = Math.floor(rand() * 5);
  const seen = new Set<string>();
  let duplicate = false;
  let keys = 0;
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const key = pick(KEYS);
    if (seen.has(key)) duplicate = true;
    seen.add(key);
    const v = value();
    duplicate ||= v.duplicate;
    keys += 1 + v.keys;
    parts.push(`${JSON.stringify(key)}${space.colon}${v.text}`);
  }
  return { text: `{${parts.join(space.comma)}}`, duplicate, keys };
}

describe('parseJsonLine: duplicate keys', () => {
  it('finds every repeated key and no other, in compact, Python-spaced and oddly spaced JSON (20,000 generated texts)', () => {
    const rand = mulberry32(7);
    let duplicates = 0;
    for (let n = 0; n < 20_000; n += 1) {
      const built = build(rand, 3, SPACES[n % SPACES.length]!);
      expect(countTextKeys(built.text), built.text).toBe(built.keys);
      const parsed = parseJsonLine(built.text, 256);
      const flagged = parsed instanceof JsonLineError && parsed.code === 'duplicate-key';
      expect(flagged, built.text).toBe(built.duplicate);
      if (flagged) duplicates += 1;
    }
    // Both outcomes are common, so neither half of the check goes untested.
    expect(duplicates).toBeGreaterThan(3000);
    expect(duplicates).toBeLessThan(17_000);
  });

  it('names the repeated key', () => {
    expect(parseJsonLine('{"a": {"b": 1, "b" : 2}}', 256)).toEqual(new JsonLineError('duplicate-key', 'duplicate object key "b"'));
    expect(parseJsonLine('{"a":"x\\": ","a":1}', 256)).toEqual(new JsonLineError('duplicate-key', 'duplicate object key "a"'));
    expect(parseJsonLine('{"a":"x\\":","b":1}', 256)).toEqual({ a: 'x":', b: 1 });
    // A key spaced before its colon gives no `":`: with a duplicate the count of `":` would equal the parsed keys.
    expect(parseJsonLine('{"a" :1,"a":2}', 256)).toEqual(new JsonLineError('duplicate-key', 'duplicate object key "a"'));
    expect(parseJsonLine('{"a": 1, "b": "c", "a": 2}', 256)).toEqual(new JsonLineError('duplicate-key', 'duplicate object key "a"'));
    expect(parseJsonLine('{"a": "x\\" :", "b": 1}', 256)).toEqual({ a: 'x" :', b: 1 });
    // JSON text inside a string (tool arguments) writes escaped `\":`: no key, even when it repeats one.
    expect(parseJsonLine('{"arguments":"{\\"a\\":1,\\"a\\":2}","b":1}', 256)).toEqual({ arguments: '{"a":1,"a":2}', b: 1 });
    // A key that ends in a backslash: its closing quote follows an even run of backslashes.
    expect(parseJsonLine('{"p\\\\":1,"p\\\\":2}', 256)).toEqual(new JsonLineError('duplicate-key', 'duplicate object key "p\\\\"'));
    // A string that starts with a colon: its opening quote writes `":` too.
    expect(parseJsonLine('{"a":":","b":1}', 256)).toEqual({ a: ':', b: 1 });
    expect(parseJsonLine('{"a":":x","a":1}', 256)).toEqual(new JsonLineError('duplicate-key', 'duplicate object key "a"'));
  });
});
