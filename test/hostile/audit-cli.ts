import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { reportSchema, type Report } from '../../src/report/schema.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process (no workers) with captured output and an empty environment unless given. */
export async function runInProcess(argv: string[], cwd = process.cwd(), env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env });
  return { code, stdout, stderr };
}

/** `audit --format json` in-process: exit code, the schema-checked report, stderr. */
export async function auditJson(paths: string[], extra: string[] = [], cwd = process.cwd()): Promise<{ code: number; report: Report; stderr: string }> {
  const run = await runInProcess(['audit', ...paths, '--format', 'json', '--jobs', '1', ...extra], cwd);
  return { code: run.code, report: reportSchema.parse(JSON.parse(run.stdout)), stderr: run.stderr };
}

/** Findings as `rule@line message` strings, the form the hostile tests assert. */
export function brief(report: Report): string[] {
  return report.findings.map((f) => `${f.ruleId}@${f.line} ${f.message}`);
}

/** A native span-log call and result pair as JSON lines. */
export function callLine(id: string, tool = 'ls'): string {
  return JSON.stringify({ run_id: 'r1', kind: 'tool_call', call_id: id, tool });
}
export function resultLine(id: string, tool = 'ls'): string {
  return JSON.stringify({ run_id: 'r1', kind: 'tool_result', call_id: id, tool, result: { ok: true } });
}
export function pairLines(id: string, tool = 'ls'): string {
  return `${callLine(id, tool)}\n${resultLine(id, tool)}\n`;
}

/** Runs dist/cli.js in a child and returns its output and peak resident memory (VmHWM, KiB) read from /proc. */
export function bundleWithPeak(args: string[], cwd: string) {
  const probe = `
    process.argv = [process.argv[0], 'cli.js', ...JSON.parse(process.env.ATA_ARGS)];
    process.on('exit', () => {
      const status = require('node:fs').readFileSync('/proc/self/status', 'utf8');
      process.stderr.write('VmHWM ' + /VmHWM:\\s+(\\d+)/.exec(status)[1] + '\\n');
    });
    import(process.env.ATA_CLI);`;
  const run = spawnSync(process.execPath, ['-e', probe], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], ATA_ARGS: JSON.stringify(args), ATA_CLI: resolve('dist/cli.js') },
    maxBuffer: 64 * 1024 * 1024,
  });
  const peak = Number(/VmHWM (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  return { code: run.status, stdout: run.stdout, stderr: run.stderr.replace(/VmHWM \d+\n/, ''), peakKiB: peak };
}
