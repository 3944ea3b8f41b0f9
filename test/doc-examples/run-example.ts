import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { tempDir } from '../helpers.js';
import type { PageCommand, PageExample } from './example-blocks.js';

export interface CommandRun {
  readonly command: PageCommand;
  readonly code: number | null;
  /** What it printed, stderr then stdout, as lines (the last newline dropped). */
  readonly lines: string[];
}

/** The bundle a user runs as `agent-trace-audit` (`npm run build` makes it). */
export const BUNDLE = resolve('dist/cli.js');

/**
 * A fresh folder holding `agent-trace-audit`, a script that runs the real bundle (dist/cli.js)
 * with this Node.js, as `npm install` puts the package's bin on PATH.
 */
function binFolder(): string {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first (the pages' commands run the real bundle)`);
  const folder = tempDir('ata-doc-bin-');
  writeFileSync(join(folder, 'agent-trace-audit'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BUNDLE)} "$@"\n`);
  chmodSync(join(folder, 'agent-trace-audit'), 0o755);
  return folder;
}

/** A fresh folder holding these files (a page's, or an example's). */
export function exampleFolder(files: ReadonlyMap<string, Buffer>, cwd: string = tempDir('ata-doc-example-')): string {
  for (const [name, bytes] of files) {
    mkdirSync(dirname(join(cwd, name)), { recursive: true });
    writeFileSync(join(cwd, name), bytes);
  }
  return cwd;
}

/**
 * A shell in `cwd` that runs a page's command lines as a GitHub Actions `run:` step does
 * (`bash --noprofile --norc -o pipefail`: a pipeline fails when a command in it fails), with
 * only PATH in its environment and `agent-trace-audit` on it (the real bundle). stdout and
 * stderr are pipes, as in a CI step's log.
 */
export function shellIn(cwd: string): (command: PageCommand) => CommandRun {
  const env = { PATH: `${binFolder()}${delimiter}${process.env['PATH'] ?? ''}` };
  return (command) => runCommand(command, cwd, env);
}

function runCommand(command: PageCommand, cwd: string, env: NodeJS.ProcessEnv): CommandRun {
  const child = spawnSync('bash', ['--noprofile', '--norc', '-o', 'pipefail', '-c', command.line], { cwd, env, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (child.error) throw child.error;
  const printed = `${child.stderr}${child.stdout}`;
  return { command, code: child.status, lines: printed === '' ? [] : printed.replace(/\n$/, '').split('\n') };
}

/** Runs a rule page's example: its files written into a fresh folder, then each command in that folder, in order. */
export function runExample(example: PageExample): CommandRun[] {
  const run = shellIn(exampleFolder(example.files));
  return example.commands.map(run);
}
