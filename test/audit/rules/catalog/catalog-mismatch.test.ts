import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from '../../../../src/canonical/index.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const OURS = canonicalSha256(['grep', 'pytest']);
const OTHER = canonicalSha256(['grep', 'pytest', 'write_file']);

describe('catalog-mismatch', () => {
  it("flags records carrying another catalog hash than their run's, and a second, different catalog", async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { type: 'catalog', run_id: 'r', catalog_names: ['grep', 'pytest'], catalog_sha256: OURS },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c1', name: 'grep', catalog_sha256: OURS },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c2', name: 'pytest', catalog_sha256: OTHER.toUpperCase() },
        { type: 'catalog', run_id: 'r', catalog_names: ['grep', 'pytest', 'write_file'] },
      ),
    });
    expect(findingsOf(result, 'catalog-mismatch')).toEqual([
      { line: 3, callId: 'c2', tool: 'pytest', runId: 'r', message: `record carries catalog_sha256 ${OTHER.toUpperCase()}, but its run's catalog (line 1) hashes to ${OURS}` },
      { line: 4, callId: null, tool: null, runId: 'r', message: `a second catalog record in the run hashes to ${OTHER}, the run's first catalog (line 1) to ${OURS}` },
    ]);
  });

  it('accepts the recorded hash, either canonical form, and a repeated identical catalog', async () => {
    const result = await auditFiles({
      'seed.jsonl': readFileSync('test/fixtures/catalog/seed-catalog-trace.jsonl', 'utf8'),
      'py.jsonl': readFileSync('test/fixtures/catalog/python-schemas.jsonl', 'utf8'),
      't.jsonl': jsonl(
        { type: 'catalog', run_id: 'r', catalog_names: ['grep', 'pytest'] },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c1', name: 'grep', catalog_sha256: OURS },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c2', name: 'grep', catalog_sha256: `sha256:${OURS.toUpperCase()}` },
        { type: 'catalog', run_id: 'r', catalog_names: ['pytest', 'grep'] },
      ),
      'py-again.jsonl': (() => {
        const lines = readFileSync('test/fixtures/catalog/python-schemas.jsonl', 'utf8').split('\n');
        const again = JSON.parse(lines[0]!) as Record<string, unknown>;
        delete again['catalog_sha256'];
        return `${lines[0]}\n${JSON.stringify(again)}\n`;
      })(),
      'no-catalog.jsonl': jsonl({ type: 'tool_call', run_id: 'x', tool_call_id: 'c1', name: 'grep', catalog_sha256: OTHER }),
    });
    expect(findingsOf(result, 'catalog-mismatch')).toEqual([]);
  });
});
