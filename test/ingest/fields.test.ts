import { describe, expect, it } from 'vitest';
import { bool, idItems, idOf, int, num, own, str, type JsonObject } from '../../src/ingest/fields.js';

// Every name an object inherits (constructor, toString, hasOwnProperty, __proto__, ...).
const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'];

describe('field readers', () => {
  it('read nothing that Object.prototype has, for every one of its names', () => {
    expect(INHERITED).toContain('constructor');
    const empty = JSON.parse('{}') as JsonObject;
    for (const name of INHERITED) {
      expect([own(empty, name), str(empty, name), idOf(empty, name), num(empty, name), int(empty, name), bool(empty, name)], name).toEqual([undefined, null, null, null, null, null]);
    }
  });

  it('read the own value of every such name when the record has it', () => {
    for (const name of INHERITED) {
      const text = JSON.stringify(name);
      const s = JSON.parse(`{${text}:"7"}`) as JsonObject;
      expect([own(s, name), str(s, name), idOf(s, name), num(s, name), int(s, name), bool(s, name)], name).toEqual(['7', '7', '7', 7, 7, null]);
      const n = JSON.parse(`{${text}:2.5}`) as JsonObject;
      expect([own(n, name), str(n, name), idOf(n, name), num(n, name), int(n, name)], name).toEqual([2.5, null, '2.5', 2.5, null]);
      const b = JSON.parse(`{${text}:false}`) as JsonObject;
      expect([own(b, name), bool(b, name)], name).toEqual([false, false]);
      const o = JSON.parse(`{${text}:{"a":1}}`) as JsonObject;
      expect([own(o, name), str(o, name)], name).toEqual([{ a: 1 }, null]);
    }
  });

  it('read records without a prototype the same way', () => {
    const bare = Object.assign(Object.create(null) as JsonObject, { constructor: 'c', id: 3 });
    expect([own(bare, 'constructor'), str(bare, 'constructor'), idOf(bare, 'id'), own(bare, 'toString')]).toEqual(['c', 'c', '3', undefined]);
  });

  it('idItems: an id or a list of ids; null when one is not an id', () => {
    expect(idItems('a')).toEqual(['a']);
    expect(idItems([1, 'b'])).toEqual(['1', 'b']);
    expect(idItems([])).toEqual([]);
    expect(idItems(['a', null])).toBeNull();
    expect(idItems({ a: 1 })).toBeNull();
    expect(idItems(Number.NaN)).toBeNull();
  });
});
