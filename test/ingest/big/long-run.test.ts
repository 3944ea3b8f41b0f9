import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { generate } from './gen-big.mjs';

const CLI = resolve('dist/cli.js');
const PAIRS = 150_000;

/** A log without run ids (so one run) of 150,000 calls, each answered on the next line: 300,000 records, 26 MB. */
function writeLongRun(path: string): void {
  const fd = openSync(path, 'w');
  let lines: string[] = [];
  for (let i = 0; i < PAIRS; i += 1) {
    lines.push(JSON.stringify({ kind: 'tool_call', call_id: `call_${i}`, tool: 'read_file', args: { path: `src/f${i}.ts` } }));
    lines.push(JSON.stringify({ kind: 'tool_result', call_id: `call_${i}`, tool: 'read_file', content: 'ok' }));
    if (lines.length >= 10_000) {
      writeSync(fd, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  writeSync(fd, `${lines.join('\n')}\n`);
  closeSync(fd);
}

function audit(root: string, file: string, maxRunRecords: number) {
  const config = join(root, `limit-${maxRunRecords}.yml`);
  writeFileSync(config, `limits:\n  max-run-records: ${maxRunRecords}\n  max-findings-per-rule: 100000\n  max-findings: 1000000\n`);
  const out = join(root, `report-${maxRunRecords}.json`);
  const run = spawnSync(process.execPath, ['--max-old-space-size=32', CLI, 'audit', file, '--config', config, '--format', 'json', '-o', out, '--fail-on', 'never', '--jobs', '1'], { encoding: 'utf8' });
  return { run, out };
}

/**
 * limits.max-run-records bounds what one run may hold (issue 22): the bundled CLI
 * audits one run of 300,000 records in a 32 MB old space when the run is cut into
 * parts of 49,999, and runs out of that heap when the limit is off.
 */
describe('one endless run in bounded memory (limits.max-run-records)', () => {
  it('300,000 records of one run: parts of 49,999 fit a 32 MB heap, the whole run does not (bundled CLI)', () => {
    const root = tempDir();
    const file = join(root, 'long.jsonl');
    writeLongRun(file);
    const cut = audit(root, file, 49_999);
    // The one-line verdict (the report went to a file): the run-split warning and the catalog-missing note.
    expect(cut.run.stderr).toBe('✅ not gated (fail-on: never): 1 warning, 1 note\n');
    expect(cut.run.status).toBe(0);
    const report = JSON.parse(readFileSync(cut.out, 'utf8')) as { summary: { runs: number; toolCalls: number; toolResults: number }; findings: Array<{ ruleId: string; line: number }> };
    expect(report.summary).toMatchObject({ runs: 7, toolCalls: PAIRS, toolResults: PAIRS });
    // An odd limit cuts between a call and its result: every such call is carried on and
    // finds its result (no orphan-call, no unmatched-result). One run-split, at the first
    // cut (line 50,000), and the run's catalog-missing note.
    expect(report.findings.map((f) => `${f.ruleId}@${f.line}`)).toEqual(['catalog-missing@1', 'run-split@50000']);
    const whole = audit(root, file, 0);
    expect(whole.run.status).not.toBe(0);
    expect(whole.run.stderr).toContain('heap out of memory');
  }, 300_000);

  it('one OTLP trace of 30 MB: assembled in parts of 2,000 spans and audited in parts of 20,000 records in a 32 MB heap', () => {
    // The generator's OTLP JSON lines (its counts are the truth: every 7th call to an unknown
    // tool, every 11th never answered), with every span moved into one trace.
    const root = tempDir();
    const many = join(root, 'many.jsonl');
    const counts = generate('otlp-lines', many, 30);
    const file = join(root, 'one-trace.jsonl');
    writeFileSync(file, readFileSync(many, 'utf8').replace(/"traceId":"[0-9a-f]{32}"/g, `"traceId":"${'ab'.repeat(16)}"`));
    const cut = audit(root, file, 20_000);
    // The one-line verdict (the report went to a file); the findings are counted below.
    expect(cut.run.stderr).toBe('✅ not gated (fail-on: never): 4,581 errors, 8,907 warnings\n');
    expect(cut.run.status).toBe(0);
    const report = JSON.parse(readFileSync(cut.out, 'utf8')) as { summary: { runs: number; toolCalls: number; toolResults: number }; findings: Array<{ ruleId: string }> };
    expect(report.summary).toMatchObject({ runs: 3, toolCalls: counts.calls, toolResults: counts.results });
    const count = (ruleId: string) => report.findings.filter((f) => f.ruleId === ruleId).length;
    expect([count('run-split'), count('orphan-call'), count('unknown-tool')]).toEqual([1, counts.orphans, counts.unknown]);
    const whole = audit(root, file, 0);
    expect(whole.run.status).not.toBe(0);
    expect(whole.run.stderr).toContain('heap out of memory');
  }, 300_000);
});
