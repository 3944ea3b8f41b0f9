import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from '../../../../src/canonical/index.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const SEED = readFileSync('test/fixtures/catalog/seed-catalog-trace.jsonl', 'utf8');
const SEED_RUN = '0b4f5c2e-8a61-4d0f-9a3c-2f7e1d6b9c41';

describe('unknown-tool', () => {
  it("flags the seed article's invented run_tests call and says the model invented it", async () => {
    const result = await auditFiles({ 'catalog_trace.jsonl': SEED });
    expect(findingsOf(result, 'unknown-tool')).toEqual([
      {
        line: 2,
        callId: 'call_run_tests_1',
        tool: 'run_tests',
        runId: SEED_RUN,
        message: "tool 'run_tests' is not in the run's catalog ('grep', 'pytest', 'read_file'): the recorded catalog hash matches these names, so the model invented a tool",
      },
    ]);
  });

  it('says the wrong catalog was shipped when the recorded hash is of other names', async () => {
    const shipped = canonicalSha256(['grep', 'pytest', 'read_file', 'run_tests']);
    const own = canonicalSha256(['grep', 'pytest']);
    const result = await auditFiles({
      't.jsonl': jsonl(
        { type: 'catalog', run_id: 'r', catalog_names: ['grep', 'pytest'], catalog_sha256: shipped },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c1', name: 'run_tests', arguments: {} },
      ),
    });
    expect(findingsOf(result, 'unknown-tool')).toEqual([
      {
        line: 2,
        callId: 'c1',
        tool: 'run_tests',
        runId: 'r',
        message: `tool 'run_tests' is not in the run's catalog ('grep', 'pytest'): the recorded catalog hash ${shipped} does not match these names (${own}), so the wrong catalog was likely shipped`,
      },
    ]);
  });

  it('treats an empty catalog as a catalog: every call is unknown', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { type: 'catalog', run_id: 'r', catalog_names: [], catalog_sha256: '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945' },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c1', name: 'ls' },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c2', name: 'cat', catalog_sha256: '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945' },
      ),
    });
    const because = 'the recorded catalog hash matches these names, so the model invented a tool';
    expect(findingsOf(result, 'unknown-tool')).toEqual([
      { line: 2, callId: 'c1', tool: 'ls', runId: 'r', message: `tool 'ls' is not in the run's catalog, which is empty: ${because}` },
      { line: 3, callId: 'c2', tool: 'cat', runId: 'r', message: `tool 'cat' is not in the run's catalog, which is empty: ${because}` },
    ]);
    expect(findingsOf(result, 'catalog-missing')).toEqual([]);
  });

  it('says when no hash is recorded, and keeps prototype names as plain data', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { type: 'catalog', run_id: 'r', catalog_names: ['__proto__'] },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c1', name: '__proto__' },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c2', name: 'constructor' },
      ),
    });
    expect(findingsOf(result, 'unknown-tool')).toEqual([
      {
        line: 3,
        callId: 'c2',
        tool: 'constructor',
        runId: 'r',
        message: "tool 'constructor' is not in the run's catalog ('__proto__'): no catalog hash is recorded to tell a wrong catalog from an invented name",
      },
    ]);
  });

  it('reads a span-log catalog ({"kind": "catalog"}) as the run\'s catalog', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { kind: 'catalog', run_id: 'r', catalog_names: ['ls'] },
        { kind: 'tool_call', run_id: 'r', call_id: 'c1', tool: 'cat' },
        { kind: 'tool_result', run_id: 'r', call_id: 'c1', tool: 'cat' },
      ),
    });
    expect(findingsOf(result, 'unknown-tool')).toEqual([
      { line: 2, callId: 'c1', tool: 'cat', runId: 'r', message: "tool 'cat' is not in the run's catalog ('ls'): no catalog hash is recorded to tell a wrong catalog from an invented name" },
    ]);
    expect(result.findings.map((f) => f.ruleId)).toEqual(['unused-tool', 'unknown-tool']);
  });

  it('does not flag calls to catalog tools, astral names included, or runs without a catalog', async () => {
    const result = await auditFiles({
      'py.jsonl': readFileSync('test/fixtures/catalog/python-schemas.jsonl', 'utf8'),
      'no-catalog.jsonl': jsonl({ type: 'tool_call', run_id: 'x', tool_call_id: 'c1', name: 'anything' }),
    });
    expect(findingsOf(result, 'unknown-tool')).toEqual([]);
  });
});
