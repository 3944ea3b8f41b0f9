import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { confinedPath, namedConfinement, realFolder } from '../io/confine.js';
import { UsageError } from '../errors.js';
import type { BaseReport } from '../report/verdict/judge.js';
import { readReport } from './commands/merge.js';

/** Reports read from one --baseline folder at most: more is a mistake (the wrong folder). */
export const MAX_BASELINE_REPORTS = 100;

/**
 * The reports of `--baseline`, given once or more: each a JSON report, or a folder
 * whose `*.json` files (not its subfolders) are all reports, read in name order.
 * Every report is read as untrusted input (readReport). Empty when none is given.
 */
export async function readBaselines(named: readonly string[], cwd: string): Promise<BaseReport[]> {
  const out: BaseReport[] = [];
  const cwdReal = realFolder(cwd);
  for (const name of named) {
    const abs = resolve(cwd, name);
    const within = namedConfinement(abs, cwdReal, cwd);
    const real = confinedPath(abs, name, within, 'file-or-folder');
    const files = isFolder(real) ? reportsIn(real, name) : [[abs, name] as const];
    for (const [path, shown] of files) {
      const report = await readReport(path, shown, within, '--baseline');
      out.push({ report, source: shown, runId: null, time: null });
    }
  }
  return out;
}

function isFolder(real: string): boolean {
  return statSync(real).isDirectory();
}

/** The `*.json` files of a --baseline folder, by name; a folder with none is a usage error. */
function reportsIn(folder: string, shown: string): Array<readonly [string, string]> {
  const names = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => entry.name)
    .sort();
  if (names.length === 0) throw new UsageError(`--baseline ${shown}: the folder holds no *.json report`);
  if (names.length > MAX_BASELINE_REPORTS) throw new UsageError(`--baseline ${shown}: the folder holds ${names.length} *.json files; at most ${MAX_BASELINE_REPORTS} reports are compared with`);
  return names.map((name) => [join(folder, name), `${shown.replace(/\/+$/, '')}/${name}`] as const);
}
