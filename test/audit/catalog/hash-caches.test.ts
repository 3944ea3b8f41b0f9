import { describe, expect, it } from 'vitest';
import { catalogHashForms, schemaHashForms } from '../../../src/audit/catalog/hashes.js';
import { FormsCache } from '../../../src/audit/catalog/forms-cache.js';
import { SchemaValidators } from '../../../src/audit/catalog/schema-validator.js';
import { canonicalSha256, compareCodePoints, compareUtf16 } from '../../../src/canonical/index.js';

/** What schemaHashForms computed before its caches: both canonical forms of the schema, hashed afresh. */
function fresh(schema: unknown): { jcs: string | null; python: string | null } {
  const attempt = (mode: 'jcs' | 'python'): string | null => {
    try {
      return canonicalSha256(schema, mode);
    } catch {
      return null;
    }
  };
  return { jcs: attempt('jcs'), python: attempt('python') };
}

describe('catalog hash caches: a hit is what hashing again gives', () => {
  it('the same schema in another run (another object) hashes as computed afresh', () => {
    const text = '{"type":"object","properties":{"q":{"type":"string","maxLength":1.5}},"required":["q"]}';
    const first = schemaHashForms({ name: 'grep', schema: JSON.parse(text), schemaSha256: null });
    const again = { name: 'grep', schema: JSON.parse(text), schemaSha256: null };
    expect(schemaHashForms(again)).toEqual(fresh(again.schema));
    expect(schemaHashForms(again)).toEqual(first);
  });

  it('keeps apart schemas that write the same JSON text (1e400 parses to Infinity, which JSON.stringify writes null)', () => {
    const infinite = { name: 'b', schema: JSON.parse('{"maximum":1e400}'), schemaSha256: null };
    const nothing = { name: 'b', schema: { maximum: null }, schemaSha256: null };
    expect(fresh(infinite.schema)).toEqual({ jcs: null, python: null });
    expect(fresh(nothing.schema).jcs).not.toBeNull();
    expect(schemaHashForms(infinite)).toEqual(fresh(infinite.schema));
    expect(schemaHashForms(nothing)).toEqual(fresh(nothing.schema));
    expect(schemaHashForms({ ...infinite })).toEqual(fresh(infinite.schema));
    const zero = { name: 'a', schema: { minimum: 0 }, schemaSha256: null };
    const negative = { name: 'a', schema: { minimum: -0 }, schemaSha256: null };
    expect(schemaHashForms(zero)).toEqual(fresh(zero.schema));
    expect(schemaHashForms(negative)).toEqual(fresh(negative.schema));
    expect(schemaHashForms({ name: 'c', schemaSha256: null })).toBeNull();
  });

  it('catalog hashes of equal name lists in other arrays and orders', () => {
    const names = ['zeta', '\u{1f600}echo', '\uff01bang', 'alpha'];
    const expected = { jcs: canonicalSha256([...names].sort(compareUtf16), 'jcs'), python: canonicalSha256([...names].sort(compareCodePoints), 'python') };
    expect(catalogHashForms(names)).toEqual(expected);
    expect(catalogHashForms([...names])).toEqual(expected);
    expect(catalogHashForms([...names].reverse())).toEqual(expected);
    expect(catalogHashForms(['alpha'])).not.toEqual(expected);
  });

  it('FormsCache computes a value JSON cannot write every time, and starts over past its size', () => {
    const cache = new FormsCache<number>();
    let computed = 0;
    const count = (): number => (computed += 1);
    cache.get(10n, count);
    cache.get(10n, count);
    expect(computed).toBe(2);
    for (let i = 0; i < 600; i += 1) cache.get([i], count);
    expect(cache.get([599], count)).toBe(602);
    expect(cache.get([0], count)).toBe(603);
    const long = 'x'.repeat((1 << 20) + 1);
    cache.get(long, count);
    expect(cache.get(long, count)).toBe(605);
    expect(cache.get([0], count)).toBe(603);
  });

  it('SchemaValidators: the same schema object compiles once; an equal object gets the same compiled schema', () => {
    const validators = new SchemaValidators();
    const schema = { type: 'object', properties: { q: { type: 'string' } } };
    const first = validators.compile(schema);
    expect(first.fresh).toBe(true);
    const again = validators.compile(schema);
    expect(again).toEqual({ compiled: first.compiled, fresh: false });
    expect(validators.compile(JSON.parse(JSON.stringify(schema)))).toEqual({ compiled: first.compiled, fresh: false });
    expect(validators.compile(true).fresh).toBe(true);
    expect(validators.compile(true).fresh).toBe(false);
  });
});
