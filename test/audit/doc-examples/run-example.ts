import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli } from '../../../src/cli/main.js';
import { tempDir } from '../../helpers.js';
import type { PageCommand, PageExample } from './example-blocks.js';

export interface CommandRun {
  readonly command: PageCommand;
  readonly code: number | null;
  /** What it printed, stderr then stdout, as lines (the last newline dropped). */
  readonly lines: string[];
}

/**
 * Runs a page's example as a user would: its files written into a fresh folder, then
 * each command in that folder, one after the other. `agent-trace-audit …` is the real
 * CLI (its entry, in this process, run in that folder with only PATH in its environment); `node <file>`
 * runs that file in a child process.
 */
export async function runExample(example: PageExample): Promise<CommandRun[]> {
  const cwd = tempDir('ata-doc-example-');
  for (const [name, bytes] of example.files) {
    mkdirSync(dirname(join(cwd, name)), { recursive: true });
    writeFileSync(join(cwd, name), bytes);
  }
  const env = { PATH: process.env['PATH'] };
  const runs: CommandRun[] = [];
  for (const command of example.commands) {
    const [program, ...args] = command.argv;
    let code: number | null;
    let stdout = '';
    let stderr = '';
    if (program === 'agent-trace-audit') {
      // The process's working folder too, as for a user in that folder: a scope path in the
      // configuration is read relative to it (src/audit/scope.ts), not to io.cwd.
      const before = process.cwd();
      process.chdir(cwd);
      try {
        code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env });
      } finally {
        process.chdir(before);
      }
    } else if (program === 'node' && args.length >= 1 && example.files.has(args[0]!)) {
      const child = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
      ({ status: code, stdout, stderr } = child);
    } else {
      throw new Error(`a page runs "agent-trace-audit …" or "node <a file of the page>", not: ${command.argv.join(' ')}`);
    }
    const printed = `${stderr}${stdout}`;
    runs.push({ command, code, lines: printed === '' ? [] : printed.replace(/\n$/, '').split('\n') });
  }
  return runs;
}
