import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FINDING_CAPS } from '../../../src/audit/findings/finding-caps.js';
import { tempTree } from '../../helpers.js';
import { auditJson, brief, callLine, runInProcess } from '../audit-cli.js';

/** A span-log line that breaks its format (a tool_call with no tool): it makes the file a span log. */
const BROKEN_SPAN = JSON.stringify({ run_id: 'r1', kind: 'tool_call', call_id: 'x' });
/** That line, then 2^20 lines of `[]` (a non-object record each): 3 MiB of text, about 3 KB gzipped. */
const ARRAY_LINES = 1 << 20;
const bomb = () => gzipSync(Buffer.from(`${BROKEN_SPAN}\n${'[]\n'.repeat(ARRAY_LINES)}`), { level: 9 });

/** A small honest trace next to the bomb: its findings must be the same with or without it. */
const honest = `${callLine('c1')}\n`;

/** What one listed finding costs in report.json at most (message 400, file 300, three ids of 120 characters, 3 bytes a character, plus keys). */
const FINDING_BYTES = 4096;

describe('finding amplification is capped', () => {
  it('a 3 KB .gz of 2^20 non-object lines lists 1,000 malformed-record findings and one that counts the rest', async () => {
    const gz = bomb();
    expect(gz.length).toBeLessThan(8 * 1024);
    const root = tempTree({ 'bomb.jsonl.gz': gz, 'honest.jsonl': honest });
    const started = performance.now();
    const run = await runInProcess(['audit', 'bomb.jsonl.gz', 'honest.jsonl', '--format', 'json', '--jobs', '1'], root);
    const seconds = (performance.now() - started) / 1000;
    const report = JSON.parse(run.stdout) as { findings: Array<{ ruleId: string; file: string; line: number; message: string }> };
    const bombFindings = report.findings.filter((f) => f.file === 'bomb.jsonl.gz');
    expect(bombFindings).toHaveLength(DEFAULT_FINDING_CAPS.perRulePerFile + 1);
    expect(bombFindings.every((f) => f.ruleId === 'malformed-record')).toBe(true);
    expect(bombFindings.filter((f) => /not listed/.test(f.message)).map((f) => `${f.line} ${f.message}`)).toEqual([
      `1001 ${ARRAY_LINES + 1 - 1000} more malformed-record finding(s) in this file from line 1001 on are not listed: a rule lists at most 1000 per file (limits.max-findings-per-rule)`,
    ]);
    // The rest of the audit is intact: the honest file's findings are those it has alone.
    const alone = await auditJson(['honest.jsonl'], [], root);
    expect(report.findings.filter((f) => f.file === 'honest.jsonl')).toEqual(alone.report.findings);
    expect(Buffer.byteLength(run.stdout)).toBeLessThanOrEqual((DEFAULT_FINDING_CAPS.perRulePerFile + 10) * FINDING_BYTES);
    // Measured about 3 s on the loaded 2-core machine (8 s and a 305 MB report before the cap).
    expect(seconds).toBeLessThan(60);
  }, 120_000);

  it('the audit lists at most limits.max-findings, one finding counting the rest with the highest severity cut', async () => {
    const files: Record<string, string> = { 'agent-trace-audit.yml': 'limits:\n  max-findings-per-rule: 5\n  max-findings: 12\n' };
    // Four files of 10 bad lines each: 5 listed + 1 summary per file = 24 findings before the audit cap.
    for (const name of ['a', 'b', 'c', 'd']) files[`${name}.jsonl`] = `${BROKEN_SPAN}\n`.repeat(10);
    const root = tempTree(files);
    const { report } = await auditJson(['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl'], [], root);
    expect(report.findings).toHaveLength(13);
    expect(brief(report)[0]).toBe('malformed-record@0 12 more finding(s) are not listed: the audit lists at most 12 (limits.max-findings); by rule: malformed-record 12');
    expect(report.findings[0]!.file).toBe('(audit)');
    expect(report.findings[0]!.severity).toBe('error');
    expect(brief(report).slice(1)).toEqual([
      ...[1, 2, 3, 4, 5].map((line) => `malformed-record@${line} tool_call span without a string "tool"`),
      'malformed-record@6 5 more malformed-record finding(s) in this file from line 6 on are not listed: a rule lists at most 5 per file (limits.max-findings-per-rule)',
      ...[1, 2, 3, 4, 5].map((line) => `malformed-record@${line} tool_call span without a string "tool"`),
      'malformed-record@6 5 more malformed-record finding(s) in this file from line 6 on are not listed: a rule lists at most 5 per file (limits.max-findings-per-rule)',
    ]);
    expect(report.findings.slice(1).map((f) => f.file)).toEqual([...Array(6).fill('a.jsonl'), ...Array(6).fill('b.jsonl')]);
  });

  it('the caps are settings: zero is a configuration error', async () => {
    const root = tempTree({ 'agent-trace-audit.yml': 'limits:\n  max-findings: 0\n', 'a.jsonl': '[]\n' });
    const run = await runInProcess(['audit', 'a.jsonl', '--format', 'json', '--jobs', '1'], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/limits\.max-findings/);
  });
});
