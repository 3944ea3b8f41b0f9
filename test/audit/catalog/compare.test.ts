import { describe, expect, it } from 'vitest';
import { compareCatalogs } from '../../../src/audit/catalog/compare.js';
import { catalogSnapshot, checkCatalog } from '../../../src/audit/catalog/run-catalog.js';
import { canonicalSha256 } from '../../../src/canonical/index.js';
import type { CatalogRecord } from '../../../src/model/records.js';

describe('compareCatalogs', () => {
  it('lists added, removed and schema-changed names, sorted', () => {
    const base = new Map<string, string | null>([['read_file', 'aa'], ['grep', 'bb'], ['pytest', null], ['__proto__', 'cc'], ['old', 'dd']]);
    const head = new Map<string, string | null>([['read_file', 'AA'], ['grep', 'b2'], ['pytest', 'ee'], ['__proto__', 'cd'], ['zeta', null], ['constructor', 'ff']]);
    expect(compareCatalogs(base, head)).toEqual({ added: ['constructor', 'zeta'], removed: ['old'], schemaChanged: ['__proto__', 'grep'] });
  });

  it('finds nothing between equal catalogs, and handles empty ones', () => {
    const one = new Map<string, string | null>([['a', 'x']]);
    expect(compareCatalogs(one, new Map(one))).toEqual({ added: [], removed: [], schemaChanged: [] });
    expect(compareCatalogs(new Map(), one)).toEqual({ added: ['a'], removed: [], schemaChanged: [] });
    expect(compareCatalogs(one, new Map())).toEqual({ added: [], removed: ['a'], schemaChanged: [] });
  });

  it('takes snapshots of catalog records: the confirmed recorded hash, else the recomputed JCS one, else the recorded one', () => {
    const schema = { type: 'object', description: 'café' }; // non-ASCII: the two forms differ
    const record: CatalogRecord = {
      kind: 'catalog',
      loc: { file: 't', line: 1 },
      runId: null,
      ts: null,
      spanId: null,
      catalogSha256: null,
      names: ['a', 'b', 'c', 'd'],
      recordedSha256: null,
      tools: [
        { name: 'a', schema, schemaSha256: canonicalSha256(schema, 'python') },
        { name: 'b', schemaSha256: 'AB' },
        { name: 'c', schemaSha256: null },
        { name: 'd', schema, schemaSha256: 'ff'.repeat(32) },
      ],
    };
    expect(catalogSnapshot(checkCatalog(record))).toEqual(new Map([['a', canonicalSha256(schema, 'python')], ['b', 'ab'], ['c', null], ['d', canonicalSha256(schema, 'jcs')]]));
  });
});
