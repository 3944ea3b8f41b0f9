import { describe, expect, it } from 'vitest';
import { parseStoredReport } from '../../src/github/artifacts/stored-report.js';
import { mergedArtifacts } from '../../src/report/artifact-list.js';
import { renderJson } from '../../src/report/render/json.js';
import { mergeReports } from '../../src/report/merge.js';
import { reportSchema } from '../../src/report/schema.js';
import { jsonl, reportOfFiles } from '../helpers.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

async function base() {
  return reportOfFiles({ 'a.jsonl': jsonl({ run_id: 'r', span_id: 's', kind: 'tool_call', call_id: 'c', tool: 't' }) });
}

describe('the report lists the artifacts read', () => {
  it('is optional: a report without artifacts stays valid and merges without the field', async () => {
    const report = await base();
    expect(reportSchema.safeParse(report).success).toBe(true);
    expect('artifacts' in mergeReports([report, report])).toBe(false);
    expect(mergedArtifacts([report])).toEqual({});
  });

  it('is strict: name, id, digest and file count, nothing else', async () => {
    const report = await base();
    expect(reportSchema.safeParse({ ...report, artifacts: [{ name: 'agent-traces-1', id: 7, digest: D1, files: 2 }] }).success).toBe(true);
    expect(reportSchema.safeParse({ ...report, artifacts: [{ name: 'agent-traces-1', id: 7, digest: D1, files: 2, url: 'x' }] }).success).toBe(false);
    expect(reportSchema.safeParse({ ...report, artifacts: [{ name: 'agent-traces-1', id: -1, digest: D1, files: 2 }] }).success).toBe(false);
  });

  it('shards merged (CLI and Action): one list, duplicates once, sorted by name', async () => {
    const report = await base();
    const a = { ...report, artifacts: [{ name: 'agent-traces-2', id: 9, digest: D2, files: 1 }, { name: 'agent-traces-1', id: 7, digest: D1, files: 2 }] };
    const b = { ...report, artifacts: [{ name: 'agent-traces-1', id: 7, digest: D1, files: 2 }] };
    const expected = [
      { name: 'agent-traces-1', id: 7, digest: D1, files: 2 },
      { name: 'agent-traces-2', id: 9, digest: D2, files: 1 },
    ];
    expect(mergeReports([b, a]).artifacts).toEqual(expected);
    expect(mergeReports([a, b, report]).artifacts).toEqual(expected);
  });

  it('a stored report keeps its artifacts, names sanitized again', async () => {
    const report = { ...(await base()), artifacts: [{ name: 'agent-traces-1\u202e', id: 7, digest: D1, files: 2 }] };
    expect(parseStoredReport(renderJson(report), 'x').artifacts).toEqual([{ name: 'agent-traces-1', id: 7, digest: D1, files: 2 }]);
  });
});
