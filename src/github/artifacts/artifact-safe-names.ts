import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** Characters the artifact service refuses in a file path (one of them fails the whole upload). */
const RESERVED = /[":<>|*?\r\n]/g;
/** Written beside the uploaded files when a name had to change: stored name → the name it had. */
export const NAMES_FILE = 'artifact-names.json';
const SEAL_MANIFEST = 'seal-manifest.json';

export interface Renamed {
  readonly stored: string;
  readonly original: string;
}

/** A name the service accepts: each reserved character as `_`, and a hash of the original so two names never meet. */
export function safeName(rel: string): string {
  const tag = createHash('sha256').update(rel).digest('hex').slice(0, 8);
  const clean = rel.replace(RESERVED, '_');
  const slash = clean.lastIndexOf('/');
  const dot = clean.indexOf('.', slash + 1);
  return dot > slash + 1 ? `${clean.slice(0, dot)}~${tag}${clean.slice(dot)}` : `${clean}~${tag}`;
}

/**
 * Moves every file under `root` whose path holds a reserved character (a trace named
 * `a:b.jsonl` gives `sealed/0001/a:b.sealed.jsonl`) to a safe name, so one name never
 * costs the upload of the report, the seals and the manifest. The seal manifest's
 * paths are changed to the stored names and `artifact-names.json` maps each stored
 * name back to the original. Returns the files to upload.
 */
export async function withSafeNames(root: string, files: readonly string[]): Promise<{ files: string[]; renamed: Renamed[] }> {
  const renamed: Renamed[] = [];
  const out: string[] = [];
  for (const file of files) {
    const rel = relative(root, file).split(sep).join('/');
    RESERVED.lastIndex = 0;
    if (!RESERVED.test(rel)) {
      out.push(file);
      continue;
    }
    const stored = safeName(rel);
    const target = join(root, ...stored.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await rename(file, target);
    renamed.push({ stored, original: rel });
    out.push(target);
  }
  if (renamed.length === 0) return { files: out, renamed };
  await rewriteManifest(root, renamed);
  const names = join(root, NAMES_FILE);
  await writeFile(names, `${JSON.stringify({ version: 1, files: renamed }, null, 2)}\n`);
  out.push(names);
  return { files: out.sort(), renamed };
}

/** The seal manifest's `sealed` and `checkpoint` paths, changed to the stored names. */
async function rewriteManifest(root: string, renamed: readonly Renamed[]): Promise<void> {
  const path = join(root, SEAL_MANIFEST);
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return;
  }
  const byOriginal = new Map(renamed.map((r) => [r.original, r.stored]));
  const files = (manifest as { files?: unknown }).files;
  if (!Array.isArray(files)) return;
  for (const entry of files as Array<Record<string, unknown>>) {
    for (const key of ['sealed', 'checkpoint']) {
      const value = entry[key];
      if (typeof value === 'string' && byOriginal.has(value)) entry[key] = byOriginal.get(value);
    }
  }
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
}
