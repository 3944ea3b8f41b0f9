import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from '../../../../src/canonical/index.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const READ_FILE = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

describe('catalog-hash-mismatch', () => {
  it('shows the recorded and the recomputed catalog hash', async () => {
    const wrong = canonicalSha256(['grep', 'read_file']);
    const right = canonicalSha256(['grep', 'pytest', 'read_file']);
    const result = await auditFiles({ 't.jsonl': jsonl({ type: 'catalog', run_id: 'r', catalog_names: ['grep', 'pytest', 'read_file'], catalog_sha256: wrong }) });
    expect(findingsOf(result, 'catalog-hash-mismatch')).toEqual([
      { line: 1, callId: null, tool: null, runId: 'r', message: `recorded catalog_sha256 ${wrong} does not match the 3 names it lists (recomputed ${right})` },
    ]);
  });

  it('shows both forms when they differ (astral against U+FF01 sorts apart)', async () => {
    const names = ['\uff01bang', '\u{1f600}echo'];
    const jcs = canonicalSha256(['\u{1f600}echo', '\uff01bang'], 'jcs');
    const python = canonicalSha256(['\uff01bang', '\u{1f600}echo'], 'python');
    const result = await auditFiles({ 't.jsonl': jsonl({ type: 'catalog', run_id: 'r', catalog_names: names, catalog_sha256: 'ab'.repeat(32) }) });
    expect(findingsOf(result, 'catalog-hash-mismatch').map((f) => f.message)).toEqual([
      `recorded catalog_sha256 ${'ab'.repeat(32)} does not match the 2 names it lists (recomputed JCS ${jcs}, Python ${python})`,
    ]);
  });

  it('flags a schema hash that does not match the recorded schema', async () => {
    const stale = canonicalSha256({ ...READ_FILE, properties: { path: { type: 'string' }, offset: { type: 'integer' } } });
    const result = await auditFiles({
      't.jsonl': jsonl({ type: 'catalog', run_id: 'r', catalog_names: ['read_file'], schema_sha256: { read_file: stale }, schemas: { read_file: READ_FILE } }),
    });
    expect(findingsOf(result, 'catalog-hash-mismatch')).toEqual([
      {
        line: 1,
        callId: null,
        tool: 'read_file',
        runId: 'r',
        // ASCII, no floats: both forms give the same bytes (the seed's CPython hash of this schema).
        message: `recorded schema_sha256 of 'read_file' ${stale} does not match its recorded schema (recomputed 923b083c9bcab2e3d3e07c7d9b4401688ad9f3d5e2c2f0c48fcd43052bdcb71b)`,
      },
    ]);
  });

  it('accepts hashes in the Python form (floats, non-ASCII, astral names) and in the JCS form', async () => {
    const astral = ['\uff01bang', '\u{1f600}echo'];
    const result = await auditFiles({
      'py.jsonl': readFileSync('test/fixtures/catalog/python-schemas.jsonl', 'utf8'),
      'seed.jsonl': readFileSync('test/fixtures/catalog/seed-catalog-trace.jsonl', 'utf8'),
      'jcs.jsonl': jsonl({
        type: 'catalog',
        run_id: 'j',
        catalog_names: astral,
        // JCS order: UTF-16 code units put the astral name (a surrogate pair) before U+FF01.
        catalog_sha256: canonicalSha256([...astral].sort(), 'jcs'),
        schema_sha256: { '\uff01bang': canonicalSha256(READ_FILE, 'jcs') },
        schemas: { '\uff01bang': READ_FILE },
      }),
      'hash-only.jsonl': jsonl({ type: 'catalog', run_id: 'h', catalog_names: ['ls'], schema_sha256: { ls: 'cd'.repeat(32) } }),
    });
    expect(findingsOf(result, 'catalog-hash-mismatch')).toEqual([]);
  });
});
