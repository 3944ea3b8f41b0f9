import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempTree } from '../../helpers.js';
import { liveCommandLines, workflowCommandLines } from './hostile-text.js';
import { TRACE } from '../workspace/hostile-workspace.js';

const CLI = resolve('dist/cli.js');

/** The bundled CLI in `cwd` with stdout a pipe, as in a workflow's `run:` step. */
function cli(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' }, timeout: 60_000 });
  return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

/** The same with stdout redirected to a file (`> out`): what the file holds. */
function cliToFile(args: string[], cwd: string, out: string): string {
  const fd = openSync(join(cwd, out), 'w');
  try {
    spawnSync(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', fd, 'pipe'], env: { PATH: process.env['PATH'] ?? '' }, timeout: 60_000 });
  } finally {
    closeSync(fd);
  }
  return readFileSync(join(cwd, out), 'utf8');
}

const NEWLINE_COMMAND = 'x\n::error title=pwned::NL';
const MASK = '::add-mask::MASKED';
const LEGACY = '##[add-mask]LEGACY';
/** A GitHub token format, built from pieces (no secret scanner flags the source). */
const GITHUB_TOKEN = ['ghp', '_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');

/** A shard report as `merge` reads it (an artifact a pull request's run uploaded): its texts hold workflow commands. */
function hostileShardReport(root: string): void {
  const run = cli(['audit', 'trace.jsonl', '--format', 'json', '--jobs', '1'], root);
  const report = JSON.parse(run.stdout) as { files: Array<{ path: string }>; findings: Array<Record<string, unknown>> };
  report.files[0]!.path = `${LEGACY}${NEWLINE_COMMAND}`;
  for (const finding of report.findings) {
    finding['message'] = `m ${LEGACY} ${NEWLINE_COMMAND}\n${MASK} ${GITHUB_TOKEN}`;
    finding['tool'] = LEGACY;
    finding['runId'] = `${NEWLINE_COMMAND}`;
    finding['file'] = `${MASK}\n${LEGACY}`;
  }
  writeFileSync(join(root, 'shard.json'), JSON.stringify(report));
}

describe('the bundled CLI prints no live workflow command on stdout', () => {
  it('merge of a hostile shard report: its texts pass the sanitizer again, no format prints a live command, json and sarif keep their value', () => {
    const root = tempTree({ 'trace.jsonl': `${JSON.stringify({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'ls' })}\n` });
    hostileShardReport(root);
    for (const format of ['text', 'markdown', 'html', 'json', 'sarif']) {
      const run = cli(['merge', 'shard.json', '--format', format], root);
      expect(run.code, run.stderr).toBe(1);
      expect(liveCommandLines(run.stdout), format).toEqual([]);
      expect(liveCommandLines(run.stderr), format).toEqual([]);
      if (format === 'json' || format === 'sarif') {
        // No command form at all, guard or not: `##[` is written `#\u0023[`, the same JSON value as the file -o writes.
        expect(workflowCommandLines(run.stdout), format).toEqual([]);
        cli(['merge', 'shard.json', '--format', format, '-o', `merged.${format}`], root);
        expect(JSON.parse(run.stdout), format).toEqual(JSON.parse(readFileSync(join(root, `merged.${format}`), 'utf8')));
      }
    }
    // The shard's texts pass the sanitizer again, as the Action's stored reports do: no raw newline, no command form, no token.
    const merged = reportSchema.parse(JSON.parse(cli(['merge', 'shard.json', '--format', 'json'], root).stdout));
    for (const finding of merged.findings) {
      for (const text of [finding.message, finding.tool, finding.runId, finding.file]) expect(text).not.toMatch(/\n|##\[|ghp_/);
    }
  });

  it('stdout redirected to a file (> summary.md) is the report unchanged: the runner does not read files', () => {
    const root = tempTree({ 'trace.jsonl': `${JSON.stringify({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'ls' })}\n` });
    hostileShardReport(root);
    for (const format of ['markdown', 'json']) {
      const redirected = cliToFile(['merge', 'shard.json', '--format', format], root, 'redirected.out');
      cli(['merge', 'shard.json', '--format', format, '-o', 'written.out'], root);
      expect(redirected, format).toBe(readFileSync(join(root, 'written.out'), 'utf8'));
    }
  });

  it('seal and verify name paths that hold commands (a file name from a pull request): guarded', () => {
    const root = tempTree({});
    mkdirSync(join(root, '::error::DIR'));
    const input = `::error::DIR/${MASK}${NEWLINE_COMMAND}.jsonl`;
    writeFileSync(join(root, input), TRACE);
    const sealedName = `y\n${MASK}.sealed.jsonl`;
    const seal = cli(['seal', input, '-o', sealedName], root);
    expect(seal.code, seal.stderr).toBe(0);
    expect(seal.stdout).toMatch(/^::stop-commands::[0-9a-f]{32}\nsealed: 2 record\(s\) in jcs form\n/);
    expect(liveCommandLines(seal.stdout + seal.stderr)).toEqual([]);
    const verify = cli(['verify', sealedName], root);
    expect(verify.code, verify.stderr).toBe(0);
    expect(liveCommandLines(verify.stdout + verify.stderr)).toEqual([]);
    expect(verify.stderr).toContain('using the checkpoint beside the file');
  });

  it('audit with run ids, call ids, tool names and a path holding commands, in every format', () => {
    const records = [
      { run_id: NEWLINE_COMMAND, kind: 'tool_call', call_id: MASK, tool: '::stop-commands::tok' },
      { run_id: NEWLINE_COMMAND, kind: 'tool_result', call_id: 'c2', tool: LEGACY, result: { error: `e\n${MASK}` } },
    ];
    const name = `${MASK}.jsonl`;
    const root = tempTree({ [name]: records.map((r) => `${JSON.stringify(r)}\n`).join('') });
    for (const format of ['text', 'markdown', 'html', 'json', 'sarif']) {
      const run = cli(['audit', name, '--format', format, '--jobs', '1'], root);
      expect(run.code, run.stderr).toBe(1);
      expect(liveCommandLines(run.stdout + run.stderr), format).toEqual([]);
    }
  });
});
