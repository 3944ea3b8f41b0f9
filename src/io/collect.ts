import { lstat, readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { isCassetteFile, YAML_FILE } from './cassette-sniff.js';
import { noSuchPath } from './file-errors.js';
import type { AuditInput } from '../model/audit.js';
import { globFiles } from './glob-files.js';
import { confine, namedConfinement, realFolder, type Confinement } from './confine.js';

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
  /** A path that does not exist is an error (CLI) or only skipped (Action); a pattern that matches nothing is skipped either way. */
  readonly strict?: boolean;
  /**
   * CLI: a file, folder or glob base typed outside the root is the user's own choice (a file
   * is read when it is a regular file; a folder's files stay inside that folder), and a `.git`
   * path typed as such is read. Action: every path stays inside the root, outside `.git`.
   */
  readonly trustNamed?: boolean;
  /** Shown before every path (`<prefix>/<path inside root>`), e.g. the artifact a file came from. */
  readonly prefix?: string;
}

/**
 * Turns paths, folders and globs into the files to audit, each once, sorted.
 * Every path is checked by the one rule of `confine.ts`: its real path (through
 * every folder on the way) must stay inside the root and outside `.git` and be a
 * regular file; a folder or glob base that leads out is refused once, and nothing
 * under it is read. Refusals are listed as skipped (a target is never named).
 */
export async function collectInputs(specs: readonly string[], options: CollectOptions): Promise<Collected> {
  const collector = new Collector(options);
  for (const spec of specs) await collector.add(spec);
  const inputs = [...collector.found.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  return { inputs, skipped: collector.skipped };
}

/** One collection's state: the files found and the paths skipped, each path checked by `confine`. */
class Collector {
  readonly found = new Map<string, AuditInput>();
  readonly skipped: Skipped[] = [];
  readonly #lexicalRoot: string;
  readonly #workspace: Confinement;
  readonly #excluded: (shown: string) => boolean;

  constructor(private readonly options: CollectOptions) {
    this.#lexicalRoot = resolve(options.root);
    this.#workspace = { root: realFolder(this.#lexicalRoot) };
    this.#excluded = options.exclude && options.exclude.length > 0 ? picomatch([...options.exclude], { dot: true, flags: 's' }) : () => false;
  }

  async add(spec: string): Promise<void> {
    const abs = resolve(this.#lexicalRoot, spec);
    const info = await lstat(abs).catch(() => null);
    if (info === null && GLOB_CHARS.test(spec)) {
      const base = resolve(this.#lexicalRoot, picomatch.scan(spec).base);
      const within = this.#openFolder(base);
      if (within === undefined) return;
      const matches = within === null ? [] : await globFiles(spec, this.#lexicalRoot);
      // A pattern that matches nothing is nothing to audit, not an error: the verdict says so (CLI and Action alike).
      if (matches.length === 0) this.skipped.push({ display: spec, reason: 'the pattern matched no file' });
      for (const match of matches.sort()) await this.#consider(match, within!, false, base);
    } else if (info === null) {
      if (this.options.strict) throw noSuchPath(spec);
      this.skipped.push({ display: spec, reason: 'no such file or directory' });
    } else if (info.isDirectory() || (info.isSymbolicLink() && (await stat(abs).catch(() => null))?.isDirectory())) {
      const within = this.#openFolder(abs);
      if (within) for (const file of await walk(abs)) await this.#consider(file, within, false, abs);
    } else {
      await this.#consider(abs, this.#typed(abs), true, this.#lexicalRoot);
    }
  }

  #display(abs: string): string {
    const rel = relative(this.#lexicalRoot, abs);
    // Relative to the working folder, also above it (../traces/a.jsonl); absolute only on another drive.
    const shown = (rel === '' || isAbsolute(rel) ? abs : rel).split(sep).join('/');
    return this.options.prefix ? `${this.options.prefix}/${shown}` : shown;
  }

  /** The confinement of what was typed: the workspace, or (CLI) the user's own path outside it. */
  #typed(abs: string): Confinement {
    return this.options.trustNamed ? namedConfinement(abs, this.#workspace.root!, this.#lexicalRoot) : this.#workspace;
  }

  /** `base`: the folder named, a pattern's base, or (a file named itself) the working folder: the file's path below it is its `within`. */
  async #consider(abs: string, within: Confinement, named: boolean, base: string): Promise<void> {
    const shown = this.#display(abs);
    if (this.#excluded(shown)) return;
    const verdict = confine(abs, within, 'file');
    if (verdict.refused !== undefined) {
      this.skipped.push({ display: shown, reason: verdict.refused });
      return;
    }
    // A YAML file found in a folder or by a pattern is read only when it is a VCR cassette (checked once it may be read).
    if (!named && YAML_FILE.test(abs) && !(await isCassetteFile(verdict.real))) return;
    const below = relative(base, abs).split(sep).join('/');
    this.found.set(abs, { path: verdict.real, display: shown, within: this.options.prefix ? `${this.options.prefix}/${below}` : below });
  }

  /**
   * A folder (or glob base) to read under: the boundary its files stay in (the workspace, or
   * a folder the CLI user typed outside it); null when it does not exist; undefined once its
   * refusal is listed (one per refused folder: nothing under it is looked at).
   */
  #openFolder(abs: string): Confinement | null | undefined {
    const typed = this.#typed(abs);
    const verdict = confine(abs, typed, 'folder');
    if (verdict.refused === undefined) return typed.root === null ? { root: verdict.real } : typed;
    if (verdict.missing) return null;
    this.skipped.push({ display: this.#display(abs), reason: verdict.refused });
    return undefined;
  }
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    // Dirents do not follow symlinks: a symlinked folder is never entered, only a real one.
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...(await walk(path)));
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      // YAML is a candidate only: `consider` keeps it when it is a cassette.
      if (TRACE_FILE.test(entry.name) || YAML_FILE.test(entry.name)) out.push(path);
    }
  }
  return out;
}
