import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { mergeReports } from '../../src/github/merge-reports.js';
import { buildReport } from '../../src/report/build.js';
import { renderJson } from '../../src/report/json.js';
import { reportSchema, type Report } from '../../src/report/schema.js';
import { auditFiles, jsonl } from '../helpers.js';

async function reportOf(files: Record<string, string>): Promise<Report> {
  return buildReport(await auditFiles(files), resolveConfig());
}

const orphan = (call: string) => jsonl({ run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: call, tool: 'search' });

describe('mergeReports', () => {
  it('unites shards, drops duplicate findings, recounts, and does not depend on order', async () => {
    const a = await reportOf({ 'a.jsonl': orphan('c1') });
    const b = await reportOf({ 'b.jsonl': orphan('c2'), 'c.jsonl': jsonl({ run_id: 'r', span_id: 's', kind: 'tool_result', call_id: 'zz', tool: 't' }) });
    const merged = mergeReports([a, b, a]);
    expect(reportSchema.safeParse(merged).success).toBe(true);
    expect(merged.summary).toEqual({ files: 3, runs: 3, toolCalls: 2, toolResults: 1, findings: { error: 3, warning: 0, note: 0 } });
    expect(merged.findings.map((f) => `${f.file}:${f.line} ${f.ruleId}`)).toEqual(['a.jsonl:1 orphan-call', 'b.jsonl:1 orphan-call', 'c.jsonl:1 unmatched-result']);
    expect(renderJson(mergeReports([b, a]))).toBe(renderJson(merged));
    expect(renderJson(mergeReports([mergeReports([b]), a]))).toBe(renderJson(merged));
  });

  it('refuses to merge nothing', () => {
    expect(() => mergeReports([])).toThrow('no shard reports to merge');
  });
});
