import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** `git ls-files` of a large monorepo: 100,000 paths of 100 bytes stay far below this. */
const MAX_LISTING_BYTES = 64 * 1024 * 1024;

/**
 * The files committed in the workspace's checkout, as paths relative to the
 * workspace (how the report names the traces it read there): one
 * `git ls-files -z` of the git index. A finding links to its file, and
 * becomes a check-run annotation, only when its file is in this set: a trace
 * written during the run, read from an artifact or inside an archive is not.
 * No checkout or no git: an empty set, so nothing is linked.
 */
export async function trackedFiles(workspace: string): Promise<ReadonlySet<string>> {
  try {
    const out = await run('git', ['ls-files', '-z'], { cwd: workspace, encoding: 'utf8', maxBuffer: MAX_LISTING_BYTES });
    return new Set(out.stdout.split('\0').filter((path) => path !== ''));
  } catch {
    return new Set();
  }
}
