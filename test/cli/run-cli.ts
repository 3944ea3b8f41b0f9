import { runCli } from '../../src/cli/main.js';

/** Runs the CLI in-process with captured output; cwd is the project root unless given. */
export async function cli(argv: string[], cwd = process.cwd()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env: {} });
  return { code, stdout, stderr };
}
