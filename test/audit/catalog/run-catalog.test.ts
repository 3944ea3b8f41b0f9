import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from '../../../src/canonical/index.js';
import { auditFiles, jsonl } from '../../helpers.js';

describe('run summary catalog hash', () => {
  it('keeps a recorded hash that matches the Python form (astral names sort by code point there)', async () => {
    const result = await auditFiles({ 'py.jsonl': readFileSync('test/fixtures/catalog/python-schemas.jsonl', 'utf8') });
    expect(result.runs.map((run) => run.catalogSha256)).toEqual(['a082dad459d4fb806baf3689fe1216483c1d19f7e02d1e70be81121d8b335e69']);
    expect(canonicalSha256(['\u{1f600}echo', 'set_ratio', '\uff01bang'], 'jcs')).not.toBe('a082dad459d4fb806baf3689fe1216483c1d19f7e02d1e70be81121d8b335e69');
  });

  it('uses the recomputed JCS hash when the recorded one is wrong or absent', async () => {
    const result = await auditFiles({
      'a.jsonl': jsonl({ type: 'catalog', run_id: 'wrong', catalog_names: ['b', 'a'], catalog_sha256: 'ab'.repeat(32) }),
      'b.jsonl': jsonl({ type: 'catalog', run_id: 'absent', catalog_names: [] }, { type: 'tool_call', run_id: 'none', name: 'x' }),
    });
    expect(result.runs.map((run) => [run.runId, run.catalogSha256])).toEqual([
      ['wrong', canonicalSha256(['a', 'b'])],
      ['absent', '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945'],
      ['none', null],
    ]);
  });
});
