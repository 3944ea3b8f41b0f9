import { describe, expect, it } from 'vitest';
import { parseStoredReport } from '../../../src/github/artifacts/stored-report.js';
import { renderJson } from '../../../src/report/render/json.js';
import { jsonl, reportOfFiles } from '../../helpers.js';

describe('parseStoredReport (untrusted reports from artifacts and baselines)', () => {
  it('accepts a real report unchanged', async () => {
    const report = await reportOfFiles({ 'a.jsonl': jsonl({ run_id: 'r', span_id: 's', kind: 'tool_call', call_id: 'c', tool: 't' }) });
    expect(parseStoredReport(renderJson(report), 'x')).toEqual(report);
  });

  it('refuses what is not a report, naming the bad field', () => {
    expect(() => parseStoredReport('{', 'artifact a')).toThrow('artifact a: not valid JSON');
    expect(() => parseStoredReport('{"schemaVersion":1}', 'artifact a')).toThrow(/^artifact a: not an agent-trace-audit report: tool: /);
    expect(() => parseStoredReport(' '.repeat(64 * 1024 * 1024 + 1), 'big')).toThrow('big: report is over the 67108864-byte cap');
  });

  it('sanitizes every shown string again (a tampered report cannot smuggle control characters or secrets)', async () => {
    const report = await reportOfFiles({ 'a.jsonl': jsonl({ run_id: 'r', span_id: 's', kind: 'tool_call', call_id: 'c', tool: 't' }) });
    const tampered = { ...report, findings: report.findings.map((f) => ({ ...f, message: 'ok\u001b[31m red\u202e ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' })) };
    const parsed = parseStoredReport(JSON.stringify(tampered), 'x');
    expect(parsed.findings[0]!.message).not.toMatch(/\u001b|\u202e|ghp_0123456789/);
    expect(parsed.findings[0]!.message.startsWith('ok red')).toBe(true);
  });
});
