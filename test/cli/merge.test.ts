import { describe, expect, it } from 'vitest';
import { jsonl, tempTree } from '../helpers.js';
import { runBundle } from './run-cli.js';

describe('agent-trace-audit merge (dist/cli.js)', () => {
  it('merges shard reports, applies the fail rule once, and refuses what is not a report', () => {
    const root = tempTree({
      'a.jsonl': jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'ls' }),
      'b.jsonl': jsonl({ run_id: 's', kind: 'llm' }),
      'bad.json': '{"schemaVersion": 1}',
      'b.txt': 'not json at all\n',
    });
    expect(runBundle(['audit', 'a.jsonl', '--format', 'json', '-o', 'ra.json'], root).code).toBe(1);
    // b.jsonl holds no tool call: nothing audited exits 1 unless --allow-empty.
    expect(runBundle(['audit', 'b.jsonl', '--format', 'json', '-o', 'rb-strict.json'], root).code).toBe(1);
    expect(runBundle(['audit', 'b.jsonl', '--format', 'json', '-o', 'rb.json', '--allow-empty'], root).code).toBe(0);
    const merged = runBundle(['merge', 'rb.json', 'ra.json'], root);
    expect(merged.code).toBe(1);
    const report = JSON.parse(merged.stdout) as { summary: unknown; findings: Array<{ ruleId: string }> };
    expect(report.summary).toEqual({ files: 2, runs: 2, toolCalls: 1, toolResults: 0, findings: { error: 1, warning: 0, note: 2 } }); // a's catalog-missing, b's "holds no tool calls"
    expect(runBundle(['merge', 'ra.json', 'rb.json'], root).stdout).toBe(merged.stdout);
    expect(runBundle(['merge', 'ra.json', '--fail-on', 'never', '--format', 'text'], root).code).toBe(0);
    const bad = runBundle(['merge', 'bad.json'], root);
    expect(bad.code).toBe(2);
    // One line that says what the file is not, and what merge reads.
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^invalid-report: bad\.json: not an agent-trace-audit report \(tool: [^\n]*\); merge reads the reports `audit --format json` writes\n$/);
    const trace = runBundle(['merge', 'a.jsonl'], root);
    expect(trace.code).toBe(2);
    expect(trace.stderr).toBe('invalid-report: a.jsonl: not an agent-trace-audit report (no schemaVersion: a trace or another JSON file); merge reads the reports `audit --format json` writes\n');
    const text = runBundle(['merge', 'b.txt'], root);
    expect(text.stderr).toBe('invalid-report: b.txt: not an agent-trace-audit report (not JSON); merge reads the reports `audit --format json` writes\n');
  });
});
