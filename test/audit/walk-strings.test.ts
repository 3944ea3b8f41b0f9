import { describe, expect, it } from 'vitest';
import { pathUnder, stringsOf } from '../../src/audit/walk-strings.js';

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
