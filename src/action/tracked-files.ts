import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** `git ls-files` of a large monorepo: 100,000 paths of 100 bytes stay far below this. */
const MAX_LISTING_BYTES = 64 * 1024 * 1024;

/**
 * The files committed in the workspace's checkout, as paths relative to the
 * workspace (how the report names the traces it read there): one
 * `git ls-files -z` of the git index. A finding links to its file, and
 * becomes a check-run annotation, only when its file is in this set. No
 * checkout, no git, or a checkout of another commit than `headSha` (publish
 * mode checks out the default branch): an empty set, so nothing is linked.
 */
export async function trackedFiles(workspace: string, headSha: string): Promise<ReadonlySet<string>> {
  try {
    if (/^[0-9a-f]{40,64}$/.test(headSha)) {
      const head = (await run('git', ['rev-parse', 'HEAD'], { cwd: workspace, encoding: 'utf8' })).stdout.trim();
      // actions/checkout of a pull_request event checks out the merge commit (shallow, so its
      // parents are read from the commit object itself): the head is one of its parents.
      const parents = head === headSha ? [] : [...(await run('git', ['cat-file', 'commit', 'HEAD'], { cwd: workspace, encoding: 'utf8' })).stdout.matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]);
      if (head !== headSha && !parents.includes(headSha)) return new Set();
    }
    const out = await run('git', ['ls-files', '-z'], { cwd: workspace, encoding: 'utf8', maxBuffer: MAX_LISTING_BYTES });
    return new Set(out.stdout.split('\0').filter((path) => path !== ''));
  } catch {
    return new Set();
  }
}
