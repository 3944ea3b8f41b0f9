import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { runCli } from '../../src/cli/main.js';

/** Runs the real bundle, dist/cli.js, as a user would: `node dist/cli.js …` in `cwd`. */
export function runBundle(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const cli = resolve('dist/cli.js');
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI in-process with captured output; cwd is the project root unless given. */
export async function cli(argv: string[], cwd = process.cwd()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env: {} });
  return { code, stdout, stderr };
}
