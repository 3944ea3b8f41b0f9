import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../src/config/config.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const SEED = readFileSync('test/fixtures/catalog/seed-catalog-trace.jsonl', 'utf8');
const SEED_RUN = '0b4f5c2e-8a61-4d0f-9a3c-2f7e1d6b9c41';

describe('unused-tool', () => {
  it("notes the seed article's grep and read_file, as notes", async () => {
    const result = await auditFiles({ 'catalog_trace.jsonl': SEED });
    expect(findingsOf(result, 'unused-tool')).toEqual([
      { line: 1, callId: null, tool: 'grep', runId: SEED_RUN, message: "tool 'grep' is in the catalog but the run never called it (2 calls to other tools)" },
      { line: 1, callId: null, tool: 'read_file', runId: SEED_RUN, message: "tool 'read_file' is in the catalog but the run never called it (2 calls to other tools)" },
    ]);
    expect(result.findings.filter((f) => f.ruleId === 'unused-tool').map((f) => f.severity)).toEqual(['note', 'note']);
  });

  it('skips names on the allow list (exact, case-sensitive)', async () => {
    const result = await auditFiles({ 'catalog_trace.jsonl': SEED }, { rules: { 'unused-tool': { allow: ['grep', 'READ_FILE'] } } });
    expect(findingsOf(result, 'unused-tool').map((f) => f.tool)).toEqual(['read_file']);
  });

  it('says so when the run made no calls, and stays quiet when every tool was called', async () => {
    const result = await auditFiles({
      'idle.jsonl': jsonl({ type: 'catalog', run_id: 'idle', catalog_names: ['ls'] }),
      'busy.jsonl': jsonl({ type: 'catalog', run_id: 'busy', catalog_names: ['ls'] }, { type: 'tool_call', run_id: 'busy', tool_call_id: 'c', name: 'ls' }),
    });
    expect(findingsOf(result, 'unused-tool')).toEqual([
      { line: 1, callId: null, tool: 'ls', runId: 'idle', message: "tool 'ls' is in the catalog but the run never called it (no calls at all)" },
    ]);
  });

  it('rejects an allow option that is not a list of names', () => {
    expect(() => resolveConfig({ rules: { 'unused-tool': { allow: 'grep' } } })).toThrow('rules.unused-tool: allow:');
    expect(() => resolveConfig({ rules: { 'unused-tool': { allowed: [] } } })).toThrow('rules.unused-tool: allowed: unknown key');
  });
});
