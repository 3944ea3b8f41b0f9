import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { reportCatalogSnapshot } from '../../src/report/catalogs.js';
import { renderJson } from '../../src/report/render/json.js';
import { mergeReports } from '../../src/report/merge.js';
import { reportSchema, type Report } from '../../src/report/schema.js';
import { audited, jsonl, tempTree } from '../helpers.js';

const schema = (field: string) => ({ type: 'object', properties: { [field]: { type: 'string' } } });
const files: Record<string, string> = {
  'a.jsonl': jsonl({ type: 'catalog', run_id: 'r1', catalog_names: ['grep', 'ls'], schemas: { grep: schema('pattern') } }),
  'b.jsonl': jsonl({ type: 'catalog', run_id: 'r2', catalog_names: ['grep', 'ls'], schemas: { grep: schema('pattern') } }),
  // Same names, another schema for grep: a second catalog with the same name hash.
  'c.jsonl': jsonl({ type: 'catalog', run_id: 'r3', catalog_names: ['__proto__', 'grep'], schemas: { grep: schema('query') } }),
};

async function reportOf(names: string[]): Promise<Report> {
  const root = tempTree(files);
  const config = resolveConfig();
  return (await audited(names.map((n) => ({ path: join(root, n), display: n })), config)).report;
}

describe('report catalogs', () => {
  it('lists each distinct catalog once, and shards merge to the same list', async () => {
    const whole = await reportOf(['a.jsonl', 'b.jsonl', 'c.jsonl']);
    expect(reportSchema.parse(JSON.parse(renderJson(whole)))).toEqual(whole);
    // a and b offer the same catalog: listed once. Sorted by catalog hash (de60… before e4fc…), tools by name.
    expect(whole.catalogs!.map((c) => [c.sha256!.slice(0, 4), c.tools.map((t) => t.name)])).toEqual([
      ['de60', ['__proto__', 'grep']],
      ['e4fc', ['grep', 'ls']],
    ]);
    expect(whole.catalogs!.map((c) => c.tools.map((t) => t.schemaSha256?.slice(0, 4) ?? null))).toEqual([[null, '094e'], ['a21a', null]]);
    const merged = mergeReports(await Promise.all([['c.jsonl'], ['b.jsonl'], ['a.jsonl']].map(reportOf)));
    // (Cross-run rules such as schema-drift see only their shard, so only the catalogs are compared.)
    expect(merged.catalogs).toEqual(whole.catalogs);
  });

  it('snapshots every tool offered; a schema that differs within the report is unknown (null)', async () => {
    const snapshot = reportCatalogSnapshot(await reportOf(['a.jsonl', 'c.jsonl']))!;
    expect([...snapshot.keys()].sort()).toEqual(['__proto__', 'grep', 'ls']);
    expect(snapshot.get('grep')).toBeNull();
    expect(snapshot.get('ls')).toBeNull();
    expect(reportCatalogSnapshot(await reportOf(['a.jsonl']))!.get('grep')).toMatch(/^[0-9a-f]{64}$/);
    const { catalogs: _gone, ...older } = await reportOf(['a.jsonl']);
    expect(reportCatalogSnapshot(older)).toBeNull();
  });
});
