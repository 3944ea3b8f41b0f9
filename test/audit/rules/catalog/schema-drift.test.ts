import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from '../../../../src/canonical/index.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const V1 = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const V2 = { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'integer' } }, required: ['path'] };

describe('schema-drift', () => {
  it('flags a tool whose schema changed between runs, once per new schema', async () => {
    const result = await auditFiles({
      'a.jsonl': jsonl({ type: 'catalog', run_id: 'r1', catalog_names: ['read_file'], schemas: { read_file: V1 } }),
      'b.jsonl': jsonl(
        { type: 'catalog', run_id: 'r2', catalog_names: ['read_file'], schemas: { read_file: V2 } },
        { type: 'catalog', run_id: 'r3', catalog_names: ['read_file'], schema_sha256: { read_file: canonicalSha256(V2, 'python') } },
      ),
    });
    expect(findingsOf(result, 'schema-drift')).toEqual([
      {
        line: 1,
        callId: null,
        tool: 'read_file',
        runId: 'r2',
        message: `tool 'read_file' has schema hash ${canonicalSha256(V2)} here but ${canonicalSha256(V1)} at a.jsonl:1: the definition changed under the same name`,
      },
    ]);
  });

  it('compares recorded hashes when no schema is recorded', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { type: 'catalog', run_id: 'r1', catalog_names: ['ls'], schema_sha256: { ls: 'AA'.repeat(32) } },
        { type: 'catalog', run_id: 'r2', catalog_names: ['ls'], schema_sha256: { ls: 'bb'.repeat(32) } },
      ),
    });
    expect(findingsOf(result, 'schema-drift').map((f) => [f.line, f.runId, f.message])).toEqual([
      [2, 'r2', `tool 'ls' has schema hash ${'bb'.repeat(32)} here but ${'aa'.repeat(32)} at t.jsonl:1: the definition changed under the same name`],
    ]);
  });

  it('does not flag one schema hashed in either form, or tools with no schema at all', async () => {
    const py = readFileSync('test/fixtures/catalog/python-schemas.jsonl', 'utf8');
    const result = await auditFiles({
      'a.jsonl': jsonl({ type: 'catalog', run_id: 'r1', catalog_names: ['read_file', 'grep'], schema_sha256: { read_file: canonicalSha256(V1, 'python') } }),
      'b.jsonl': jsonl({ type: 'catalog', run_id: 'r2', catalog_names: ['read_file', 'grep'], schemas: { read_file: V1 } }),
      'c.jsonl': jsonl({ type: 'catalog', run_id: 'r3', catalog_names: ['read_file'], schema_sha256: { read_file: canonicalSha256(V1, 'jcs') } }),
      'py1.jsonl': py,
      'py2.jsonl': py,
    });
    expect(findingsOf(result, 'schema-drift')).toEqual([]);
  });
});
