import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it('reads the configuration file (and --config) as audit does; nothing audited in every shard exits 1 unless --allow-empty', () => {
    const root = tempTree({
      'a.jsonl': jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'ls' }),
      'b.jsonl': jsonl({ run_id: 's', kind: 'llm' }),
      'never.yml': 'fail-on: never\n',
    });
    expect(runBundle(['audit', 'a.jsonl', '--format', 'json', '-o', 'ra.json'], root).code).toBe(1);
    expect(runBundle(['audit', 'b.jsonl', '--format', 'json', '-o', 'rb.json', '--allow-empty'], root).code).toBe(0);
    expect(runBundle(['merge', 'ra.json', '--format', 'text'], root).code).toBe(1);
    expect(runBundle(['merge', 'ra.json', '--config', 'never.yml', '--format', 'text'], root).code).toBe(0);
    expect(runBundle(['merge', 'ra.json', '--config', 'never.yml', '--fail-on', 'error'], root).code).toBe(1);
    writeFileSync(join(root, 'agent-trace-audit.yml'), 'fail-on: never\n');
    const never = runBundle(['merge', 'ra.json', '--format', 'text'], root);
    expect([never.code, never.stdout.split('\n')[0]]).toEqual([0, '✅ not gated (fail-on: never): 1 error, 1 note']);
    expect(runBundle(['merge', 'ra.json', '--config', 'none.yml'], root).stderr).toBe('no-such-path: no such configuration file: "none.yml"\n');
    const empty = runBundle(['merge', 'rb.json', '--format', 'text'], root);
    expect([empty.code, empty.stdout.split('\n')[0]]).toEqual([1, '⚠️ nothing audited: no tool call was read from 1 file']);
    expect(runBundle(['merge', 'rb.json', '--allow-empty'], root).code).toBe(0);
    // With -o the verdict goes to stderr, as audit's does.
    const toFile = runBundle(['merge', 'rb.json', '-o', 'm.json'], root);
    expect([toFile.code, toFile.stderr]).toEqual([1, '⚠️ nothing audited: no tool call was read from 1 file\n']);
  });
});
