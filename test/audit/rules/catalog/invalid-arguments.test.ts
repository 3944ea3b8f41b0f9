import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const READ_FILE = { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'integer', minimum: 0 } }, required: ['path'] };
const PAIR_2020 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
};

const catalog = (runId: string, schemas: Record<string, unknown>) => ({ type: 'catalog', run_id: runId, catalog_names: Object.keys(schemas), schemas });
const call = (runId: string, id: string, name: string, args: unknown) => ({ type: 'tool_call', run_id: runId, tool_call_id: id, name, arguments: args });

describe('invalid-arguments', () => {
  it('reports the failing instance path and keyword (draft-07 and 2020-12)', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        catalog('r', { read_file: READ_FILE, pair: PAIR_2020 }),
        call('r', 'c1', 'read_file', { path: 3 }),
        call('r', 'c2', 'read_file', { offset: 1 }),
        call('r', 'c3', 'read_file', { path: 'a', offset: -1 }),
        call('r', 'c4', 'pair', { pair: ['a', 'b'] }),
        call('r', 'c5', 'pair', { pair: ['a', 1, 2] }),
      ),
    });
    expect(findingsOf(result, 'invalid-arguments')).toEqual([
      { line: 2, callId: 'c1', tool: 'read_file', runId: 'r', message: "arguments to 'read_file' fail its schema at /path (keyword 'type'): must be string" },
      { line: 3, callId: 'c2', tool: 'read_file', runId: 'r', message: "arguments to 'read_file' fail its schema at the top level (keyword 'required'): must have required property 'path'" },
      { line: 4, callId: 'c3', tool: 'read_file', runId: 'r', message: "arguments to 'read_file' fail its schema at /offset (keyword 'minimum'): must be >= 0" },
      { line: 5, callId: 'c4', tool: 'pair', runId: 'r', message: "arguments to 'pair' fail its schema at /pair/1 (keyword 'type'): must be number" },
      { line: 6, callId: 'c5', tool: 'pair', runId: 'r', message: "arguments to 'pair' fail its schema at /pair (keyword 'items'): must NOT have more than 2 items" },
    ]);
  });

  it('reports a schema that does not compile once, across runs, instead of crashing', async () => {
    const broken = { type: 'object', properties: { path: { type: 'strng' } } };
    const result = await auditFiles({
      'a.jsonl': jsonl(catalog('r1', { read_file: broken }), call('r1', 'c1', 'read_file', { path: 'x' }), call('r1', 'c2', 'read_file', {})),
      'b.jsonl': jsonl(catalog('r2', { read_file: broken }), call('r2', 'c1', 'read_file', { path: 'x' })),
    });
    const findings = findingsOf(result, 'invalid-arguments');
    expect(findings.map(({ line, tool, runId }) => ({ line, tool, runId }))).toEqual([{ line: 1, tool: 'read_file', runId: 'r1' }]);
    expect(findings[0]!.message).toMatch(/^schema of 'read_file' does not compile \(schema is invalid: .*\): its calls are not validated$/);
    expect(result.findings.filter((f) => f.ruleId === 'rule-crash')).toEqual([]);
  });

  it('passes valid arguments, tools without a schema, calls without arguments, and same-$id schemas', async () => {
    const withId = (type: string) => ({ $id: 'https://example.test/tool', type: 'object', properties: { q: { type } } });
    const result = await auditFiles({
      't.jsonl': jsonl(
        catalog('r', { read_file: READ_FILE, pair: PAIR_2020, open: true }),
        call('r', 'c1', 'read_file', { path: 'a', offset: 0 }),
        call('r', 'c2', 'pair', { pair: ['a', 1] }),
        call('r', 'c3', 'open', { anything: [1] }),
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c4', name: 'read_file', args_sha256: 'ab' },
      ),
      'ids.jsonl': jsonl(catalog('i1', { s: withId('string') }), call('i1', 'c', 's', { q: 'x' }), catalog('i2', { n: withId('number') }), call('i2', 'c', 'n', { q: 1 })),
      'dialects.jsonl': jsonl(
        catalog('d', {
          d6: { $schema: 'http://json-schema.org/draft-06/schema#', type: 'object' },
          d7: { $schema: 'https://json-schema.org/draft-07/schema', type: 'object' },
        }),
        call('d', 'c1', 'd6', {}),
        call('d', 'c2', 'd7', {}),
      ),
      'seed.jsonl': readFileSync('test/fixtures/catalog/seed-catalog-trace.jsonl', 'utf8'),
      'py.jsonl': readFileSync('test/fixtures/catalog/python-schemas.jsonl', 'utf8'),
    });
    expect(findingsOf(result, 'invalid-arguments')).toEqual([]);
  });

  it("validates calls that come before their run's catalog when it arrives, up to pendingCalls of them, and says how many it did not", async () => {
    const records = [call('r', 'c1', 'read_file', { path: 1 }), call('r', 'c2', 'read_file', { path: 2 }), call('r', 'c3', 'read_file', { path: 3 }), catalog('r', { read_file: READ_FILE }), call('r', 'c4', 'read_file', { path: 4 })];
    const all = await auditFiles({ 't.jsonl': jsonl(...records) });
    expect(findingsOf(all, 'invalid-arguments').map((f) => [f.line, f.callId])).toEqual([[1, 'c1'], [2, 'c2'], [3, 'c3'], [5, 'c4']]);
    const capped = await auditFiles({ 't.jsonl': jsonl(...records) }, { rules: { 'invalid-arguments': { pendingCalls: 1 } } });
    expect(findingsOf(capped, 'invalid-arguments')).toEqual([
      { line: 1, callId: 'c1', tool: 'read_file', runId: 'r', message: "arguments to 'read_file' fail its schema at /path (keyword 'type'): must be string" },
      { line: 2, callId: 'c2', tool: 'read_file', runId: 'r', message: "2 call(s) came before the run's catalog (line 4) past the limit of 1 calls held for it (rules.invalid-arguments.pendingCalls): their arguments were not validated" },
      { line: 5, callId: 'c4', tool: 'read_file', runId: 'r', message: "arguments to 'read_file' fail its schema at /path (keyword 'type'): must be string" },
    ]);
  });
});
