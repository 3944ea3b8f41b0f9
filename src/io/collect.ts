import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { InputError } from '../errors.js';
import { isCassetteFile, YAML_FILE } from './cassette-sniff.js';
import { noSuchPath } from './file-errors.js';
import type { AuditInput } from '../model/audit.js';
import { globFiles } from './glob-files.js';

/** File names read when a directory is named: trace-like extensions, gzip too. */
export const TRACE_FILE = /\.(jsonl|ndjson|json|eval)(\.gz)?$/i;
const SKIP_DIRS = new Set(['node_modules', '.git']);
const GLOB_CHARS = /[*?[\]{}]/;

export interface Skipped {
  readonly display: string;
  readonly reason: string;
}

export interface Collected {
  readonly inputs: AuditInput[];
  readonly skipped: Skipped[];
}

export interface CollectOptions {
  /** Paths are shown relative to this folder and may not leave it through a symlink. */
  readonly root: string;
  readonly exclude?: readonly string[];
  /** A path or pattern that matches nothing is an error (CLI) or only skipped (Action). */
  readonly strict?: boolean;
  /** Shown before every path (`<prefix>/<path inside root>`), e.g. the artifact a file came from. */
  readonly prefix?: string;
}

/**
 * Turns paths, folders and globs into the files to audit, each once, sorted.
 * Symlinks are followed only to regular files inside the root and outside
 * `.git`; anything else is refused and listed as skipped (its target is never named).
 */
export async function collectInputs(specs: readonly string[], options: CollectOptions): Promise<Collected> {
  const root = await realpath(resolve(options.root));
  const excluded = options.exclude && options.exclude.length > 0 ? picomatch([...options.exclude], { dot: true, flags: 's' }) : () => false;
  const found = new Map<string, AuditInput>();
  const skipped: Skipped[] = [];
  const display = (abs: string) => {
    const rel = relative(root, abs);
    // Relative to the working folder, also above it (../traces/a.jsonl); absolute only on another drive.
    const shown = (rel === '' || isAbsolute(rel) ? abs : rel).split(sep).join('/');
    return options.prefix ? `${options.prefix}/${shown}` : shown;
  };
  const consider = async (abs: string, named: boolean) => {
    const shown = display(abs);
    if (excluded(shown)) return;
    const verdict = await checkFile(abs, root, named);
    // A YAML file found in a folder or by a pattern is read only when it is a VCR cassette (checked once it may be read).
    if (verdict === true && !named && YAML_FILE.test(abs) && !(await isCassetteFile(abs))) return;
    if (verdict === true) found.set(abs, { path: abs, display: shown });
    else skipped.push({ display: shown, reason: verdict });
  };

  for (const spec of specs) {
    const abs = resolve(options.root, spec);
    const info = await lstat(abs).catch(() => null);
    if (info === null && GLOB_CHARS.test(spec)) {
      const matches = await globFiles(spec, root);
      if (matches.length === 0) {
        if (options.strict) throw new InputError(spec, null, 'no-match', `no file matches ${JSON.stringify(spec)}`);
        skipped.push({ display: spec, reason: 'the pattern matched no file' });
      }
      for (const match of matches.sort()) await consider(match, false);
    } else if (info === null) {
      if (options.strict) throw noSuchPath(spec);
      skipped.push({ display: spec, reason: 'no such file or directory' });
    } else if (info.isDirectory()) {
      for (const file of await walk(abs)) await consider(file, false);
    } else {
      await consider(abs, true);
    }
  }
  const inputs = [...found.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  return { inputs, skipped };
}

/** true when the file may be read; otherwise the reason it is refused. */
async function checkFile(abs: string, root: string, named: boolean): Promise<true | string> {
  const info = await lstat(abs).catch(() => null);
  if (info === null) return 'no such file';
  if (info.isSymbolicLink()) {
    const target = await realpath(abs).catch(() => null);
    if (target === null) return 'refused: a symlink whose target does not exist';
    if (!inside(target, root)) return 'refused: a symlink that leaves the workspace';
    if (target.split(sep).includes('.git')) return 'refused: a symlink into .git';
    const targetInfo = await stat(target).catch(() => null);
    if (!targetInfo?.isFile()) return 'refused: a symlink to something that is not a regular file';
    return true;
  }
  if (!info.isFile()) return 'refused: not a regular file';
  if (!named && abs.split(sep).includes('.git')) return 'refused: inside .git';
  return true;
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...(await walk(path)));
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      // YAML is a candidate only: `consider` keeps it when it is a cassette.
      if (TRACE_FILE.test(entry.name) || YAML_FILE.test(entry.name)) out.push(path);
    }
  }
  return out;
}
