import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/**
 * Public trace files from other repositories are never committed here. They are listed in
 * test/fixtures/public-corpus.json (source, commit, license, SHA-256, expected counts) and read
 * from the public corpus folder beside the checkout (`../shared/corpus/`), or from the folder
 * that AGENT_TRACE_AUDIT_CORPUS names. A test that needs a file that is not there is skipped and
 * counted (test/public-corpus-reporter.ts prints the count); with AGENT_TRACE_AUDIT_REQUIRE_CORPUS=1
 * (set by .ci/run) a missing file fails instead. See test/fixtures/public-corpus.md.
 */
export const CORPUS_ENV = 'AGENT_TRACE_AUDIT_CORPUS';
export const REQUIRE_CORPUS_ENV = 'AGENT_TRACE_AUDIT_REQUIRE_CORPUS';
/** Every test that is skipped because a public file is absent has this in its name. */
export const CORPUS_MARK = '[public corpus]';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST_PATH = join(PROJECT, 'test', 'fixtures', 'public-corpus.json');

export interface ManifestEntry {
  /** The path under the corpus folder. */
  file: string;
  repository: string;
  path: string;
  commit: string;
  license: string;
  sha256: string;
  /** What the tests expect of the file, counted independently of the tool (calls, results, orphans …). */
  counts?: Record<string, number>;
  /** How the counts were taken. */
  counted?: string;
  /**
   * Listed by a change and not yet in the shared corpus (files are added there after the change
   * that lists them lands): its tests are skipped and counted even where the corpus is required.
   * Drop the flag once the file is there.
   */
  pending?: boolean;
}

interface Manifest {
  files: ManifestEntry[];
}

let manifestCache: Map<string, ManifestEntry> | undefined;

export function manifest(): Map<string, ManifestEntry> {
  if (!manifestCache) {
    const parsed = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as Manifest;
    manifestCache = new Map(parsed.files.map((entry) => [entry.file, entry]));
  }
  return manifestCache;
}

/** The corpus folder: AGENT_TRACE_AUDIT_CORPUS, else ../shared/corpus beside the project. */
export function corpusRoot(): string {
  const named = process.env[CORPUS_ENV];
  return named ? resolve(named) : resolve(PROJECT, '..', 'shared', 'corpus');
}

function required(): boolean {
  return process.env[REQUIRE_CORPUS_ENV] === '1' || process.env[REQUIRE_CORPUS_ENV] === 'true';
}

const checked = new Map<string, string | null>();

/** Missing files that make a test fail where the corpus is required: all but those the manifest marks pending. */
function missingRequired(files: readonly string[]): string[] {
  if (!required()) return [];
  return files.filter((file) => problem(file) !== null && manifest().get(file)?.pending !== true).map((file) => problem(file)!);
}

/** Why the listed file cannot be used (absent), or null when it is there and its bytes match the manifest. Throws on a hash mismatch or an unlisted name. */
function problem(file: string): string | null {
  const known = checked.get(file);
  if (known !== undefined) return known;
  const entry = manifest().get(file);
  if (!entry) throw new Error(`${file} is not listed in test/fixtures/public-corpus.json`);
  const path = join(corpusRoot(), file);
  let result: string | null = null;
  if (!existsSync(path) || !statSync(path).isFile()) {
    result = `${file} is not in the public corpus folder ${corpusRoot()}`;
  } else {
    const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
    if (digest !== entry.sha256) {
      throw new Error(`${file}: SHA-256 ${digest} differs from the manifest's ${entry.sha256}: the corpus copy is not the listed file`);
    }
  }
  checked.set(file, result);
  return result;
}

/** True when every named file is present (and matches its hash). */
export function corpusHas(...files: string[]): boolean {
  return files.every((file) => problem(file) === null);
}

/** The absolute path of a listed public file. Throws when it is absent or its bytes differ from the manifest. */
export function corpusFile(file: string): string {
  const missing = problem(file);
  if (missing) throw new Error(missing);
  return join(corpusRoot(), file);
}

/**
 * Every listed file, sorted, but a pending one that is not there yet: what a test over the whole
 * corpus reads (a file that should be there and is not still skips or fails that test).
 */
export function corpusFiles(): string[] {
  return [...manifest().values()].filter((entry) => entry.pending !== true || problem(entry.file) === null).map((entry) => entry.file).sort();
}

/** Every file of corpusFiles() under a corpus folder (e.g. 'codex'), sorted. */
export function corpusFilesUnder(folder: string): string[] {
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  return corpusFiles().filter((file) => file.startsWith(prefix));
}

/** The expected counts the manifest keeps for a file. */
export function corpusCounts(file: string): Record<string, number> {
  const counts = manifest().get(file)?.counts;
  if (!counts) throw new Error(`${file} has no counts in test/fixtures/public-corpus.json`);
  return counts;
}

/**
 * A describe block that needs public files. When every file is there it runs as usual; when one is
 * absent its tests are skipped (and counted by the reporter), or, with AGENT_TRACE_AUDIT_REQUIRE_CORPUS
 * set, one failing test names what is missing.
 */
export function describeCorpus(name: string, files: readonly string[], body: () => void | Promise<void>): void {
  const missing = files.map(problem).filter((reason): reason is string => reason !== null);
  if (missing.length === 0) {
    describe(`${CORPUS_MARK} ${name}`, body);
    return;
  }
  const unmet = missingRequired(files);
  if (unmet.length > 0) {
    describe(`${CORPUS_MARK} ${name}`, () => {
      it('has its public files', () => {
        throw new Error(`${REQUIRE_CORPUS_ENV} is set and public files are missing:\n${unmet.join('\n')}`);
      });
    });
    return;
  }
  // A skipped block is still collected: a body that reads its files while collecting gets one placeholder instead.
  describe.skip(`${CORPUS_MARK} ${name}`, async () => {
    try {
      await body();
    } catch {
      it('needs the public files it names', () => {});
    }
  });
}

/** One test that needs public files: runs, is skipped and counted, or (AGENT_TRACE_AUDIT_REQUIRE_CORPUS) fails, as describeCorpus. */
export function itCorpus(name: string, files: readonly string[], body: () => unknown, timeout?: number): void {
  const missing = files.map(problem).filter((reason): reason is string => reason !== null);
  const unmet = missingRequired(files);
  const title = `${CORPUS_MARK} ${name}`;
  if (missing.length === 0) {
    it(title, body, timeout);
  } else if (unmet.length > 0) {
    it(title, () => {
      throw new Error(`${REQUIRE_CORPUS_ENV} is set and public files are missing:\n${unmet.join('\n')}`);
    });
  } else {
    it.skip(title, body);
  }
}
