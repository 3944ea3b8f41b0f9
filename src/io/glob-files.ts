import { readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';

const SKIP_DIRS = new Set(['node_modules', '.git']);

/**
 * The files (and symlinks, checked by the caller) under `root` that a glob matches,
 * sorted. A walk from the pattern's fixed base, each path matched with `.` matching
 * every character: a folder or file named with a newline or CR is matched like any
 * other (the glob library's matcher has no such flag and skipped them without a word).
 * `node_modules` and `.git` are not entered; dot folders and files match only when
 * the pattern names them.
 */
export async function globFiles(pattern: string, root: string): Promise<string[]> {
  const matcher = picomatch(pattern, { dot: false, posix: true, flags: 's' });
  const { base } = picomatch.scan(pattern);
  const start = resolve(root, base);
  const out: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) await visit(path);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && matcher(relative(root, path).split(sep).join('/'))) {
        out.push(path);
      }
    }
  };
  await visit(start);
  return out.sort();
}
