import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { renderJson } from '../../src/report/render/json.js';
import { mergeReports } from '../../src/report/merge.js';
import type { Report } from '../../src/report/schema.js';
import { audited, jsonl, tempTree } from '../helpers.js';

const files: Record<string, string> = {
  'a.jsonl': jsonl({ run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'ls' }, { run_id: 'r1', kind: 'llm' }),
  'b.jsonl': jsonl({ type: 'tool_result', run_id: 'u', tool_call_id: 'nope', name: 'grep', exit_code: 0 }),
  'c.jsonl': `${jsonl({ run_id: 'z', kind: 'tool_call', call_id: 'x', tool: 'cat' }, { run_id: 'z', kind: 'tool_result', call_id: 'x' })}{"kind":`,
  'd.jsonl': jsonl({ run_id: 'q', kind: 'llm' }),
};

async function reportOf(names: string[]): Promise<Report> {
  const root = tempTree(files);
  const config = resolveConfig();
  return (await audited(names.map((n) => ({ path: `${root}/${n}`, display: n })), config)).report;
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe('mergeReports', () => {
  it('merging shard reports gives the report of auditing everything at once', async () => {
    const whole = await reportOf(['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl']);
    const shards = await Promise.all([['a.jsonl'], ['b.jsonl', 'd.jsonl'], ['c.jsonl']].map(reportOf));
    expect(renderJson(mergeReports(shards))).toBe(renderJson(whole));
  });

  it('is order-independent and associative, byte for byte', async () => {
    const shards = await Promise.all([['a.jsonl'], ['b.jsonl'], ['c.jsonl'], ['d.jsonl']].map(reportOf));
    const expected = renderJson(mergeReports(shards));
    for (const order of permutations(shards)) {
      expect(renderJson(mergeReports(order))).toBe(expected);
      const [w, x, y, z] = order as [Report, Report, Report, Report];
      expect(renderJson(mergeReports([mergeReports([w, x]), mergeReports([y, z])]))).toBe(expected);
      expect(renderJson(mergeReports([w, mergeReports([x, mergeReports([y, z])])]))).toBe(expected);
    }
  });

  it('counts a finding that two shards both report once', async () => {
    const one = await reportOf(['a.jsonl', 'b.jsonl']);
    const two = await reportOf(['b.jsonl', 'c.jsonl']);
    const merged = mergeReports([one, two]);
    expect(merged.findings.filter((f) => f.file === 'b.jsonl').length).toBe(1);
    expect(merged.summary.findings).toEqual({ error: 3, warning: 1, note: 2 });
    expect(merged.summary.files).toBe(3);
  });

  it('adds metrics key by key', () => {
    const base = { schemaVersion: 1, tool: { name: 'agent-trace-audit', version: '0.1.0' }, summary: { files: 0, runs: 0, toolCalls: 0, toolResults: 0, findings: { error: 0, warning: 0, note: 0 } }, files: [], runs: [], rules: [], findings: [] };
    const merged = mergeReports([
      { ...base, metrics: { 'x.errors': 2, 'x.hist': { '1': 3 } } } as Report,
      { ...base, metrics: { 'x.errors': 5, 'x.hist': { '1': 1, '4': 2 }, 'y.count': 1 } } as Report,
    ]);
    expect(merged.metrics).toEqual({ 'x.errors': 7, 'x.hist': { '1': 4, '4': 2 }, 'y.count': 1 });
  });
});
