import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

describe('catalog-missing', () => {
  it('flags a run with calls and no catalog once, at its first call', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { type: 'llm', run_id: 'r' },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c1', name: 'ls' },
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c2', name: 'cat' },
        { type: 'tool_call', run_id: 'solo', tool_call_id: 'c1', name: 'ls' },
      ),
    });
    expect(findingsOf(result, 'catalog-missing')).toEqual([
      { line: 2, callId: null, tool: null, runId: 'r', message: 'run has 2 tool calls but no catalog record: nothing to check the tool names against' },
      { line: 4, callId: null, tool: null, runId: 'solo', message: 'run has 1 tool call but no catalog record: nothing to check the tool names against' },
    ]);
  });

  it('does not flag runs with a catalog, or runs without calls', async () => {
    const result = await auditFiles({
      'seed.jsonl': readFileSync('test/fixtures/catalog/seed-catalog-trace.jsonl', 'utf8'),
      'chat.jsonl': jsonl({ type: 'llm', run_id: 'x' }),
    });
    expect(findingsOf(result, 'catalog-missing')).toEqual([]);
  });
});
