import { describe, expect, it } from 'vitest';
import { forEachString, pathUnder, stringsOf } from '../../../src/audit/facts/walk-strings.js';

describe('pathUnder', () => {
  it('puts a root in front of the paths stringsOf gives, as a walk from that root would spell them', () => {
    const object = { headers: { Authorization: 'x' }, '[odd]': 'y', list: ['z'] };
    expect(stringsOf(object).map(({ path }) => pathUnder('args', object, path))).toEqual([
      'args.headers.Authorization',
      'args.[odd]',
      'args.list[0]',
    ]);
    const array = ['a', { k: 'b' }];
    expect(stringsOf(array).map(({ path }) => pathUnder('result', array, path))).toEqual(['result[0]', 'result[1].k']);
    const text = '{"token":"t"}';
    expect(stringsOf(text).map(({ path }) => pathUnder('result', text, path))).toEqual(['result', 'result<json>.token']);
  });
});

describe('forEachString', () => {
  it('visits every string in document order, inside JSON strings too, with the path of each', () => {
    const seen: string[] = [];
    forEachString({ a: 'x', b: [1, 'y', { c: '\r\n {"d":["e"]}' }], f: null, g: ' [broken' }, (path, text) => seen.push(`${path}=${text}`));
    expect(seen).toEqual(['a=x', 'b[1]=y', 'b[2].c=\r\n {"d":["e"]}', 'b[2].c<json>.d[0]=e', 'g= [broken']);
  });

  it('reads a string as JSON when JSON.parse takes it as an object or array', () => {
    for (const space of ['', ' ', '\t', '\n', '\r\n  ']) {
      expect(stringsOf(`${space}{"k":"v"}`).map(({ path }) => path)).toEqual(['', '<json>.k']);
      expect(stringsOf(`${space}["v"]`).map(({ path }) => path)).toEqual(['', '<json>[0]']);
    }
    // Not JSON white space, a scalar, or not JSON at all: only the string itself.
    for (const other of ['\u00a0{"k":"v"}', '\ufeff{"k":"v"}', 'x{"k":"v"}', '"quoted"', '42', '{"k":']) expect(stringsOf(other)).toHaveLength(1);
  });

  it('stops after 10,000 strings and 64 levels', () => {
    let count = 0;
    forEachString(Array.from({ length: 12_000 }, (_, i) => `s${i}`), () => (count += 1));
    expect(count).toBe(10_000);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 70; i += 1) deep = { k: deep };
    expect(stringsOf(deep)).toEqual([]);
    let shallow: unknown = 'bottom';
    for (let i = 0; i < 64; i += 1) shallow = { k: shallow };
    expect(stringsOf(shallow)).toHaveLength(1);
  });
});
