import { describe, expect, it } from 'vitest';
import { bool, idItems, idOf, int, num, own, str, toMillis, type JsonObject } from '../../src/ingest/facts/fields.js';

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

describe('toMillis', () => {
  it('reads ISO timestamps as Date.parse does, in and out of range (its fast form included)', () => {
    // A seeded walk over every field's edges: months 0-13, days 0-32, hours 0-25, a year before 1000.
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const pad = (v: number, k: number): string => String(v).padStart(k, '0');
    const samples = ['2026-01-01T00:00:00.000Z', '0999-01-01T00:00:00.000Z', '0050-06-15T12:00:00.000Z', '2026-02-29T00:00:00.000Z', '2026-01-01T24:00:00.000Z', '2026-01-01T00:00:00.000+00:00', '2026-01-01T00:00:00Z', '2026-1-01T00:00:00.000Z'];
    for (let i = 0; i < 20_000; i += 1) {
      samples.push(`${pad(next(3000), 4)}-${pad(next(14), 2)}-${pad(next(33), 2)}T${pad(next(26), 2)}:${pad(next(62), 2)}:${pad(next(62), 2)}.${pad(next(1000), 3)}Z`);
    }
    for (const text of samples) {
      const parsed = Date.parse(text);
      expect(toMillis(text), text).toBe(Number.isNaN(parsed) ? null : parsed);
    }
  });
});
