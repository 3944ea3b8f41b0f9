import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

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
