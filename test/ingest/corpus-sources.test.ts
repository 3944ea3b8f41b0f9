import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusRoot, manifest } from '../public-corpus.js';

const tracked = () => execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter((path) => path !== '' && existsSync(path));
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('test/fixtures/public-corpus.json: every public file the tests read has its source, license and hash', () => {
  it('names each file once, with a repository, a path, a full commit, a license and a SHA-256', () => {
    const entries = [...manifest().values()];
    expect(entries.length).toBeGreaterThanOrEqual(67);
    for (const entry of entries) {
      expect(entry.file, entry.file).toMatch(/^[a-z0-9-]+\/[^/]+$/);
      expect(entry.repository, entry.file).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(entry.path.length, entry.file).toBeGreaterThan(0);
      expect(entry.commit, entry.file).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.license, entry.file).toMatch(/^(MIT|Apache-2\.0)/);
      expect(entry.sha256, entry.file).toMatch(/^[0-9a-f]{64}$/);
      if (entry.counts) expect(entry.counted, entry.file).toBeTruthy();
    }
  });

  it('lists every row of the corpus folder\'s SOURCES.md with the same source (when the folder is there)', () => {
    const sources = join(corpusRoot(), 'SOURCES.md');
    if (!existsSync(sources)) return;
    const rows = readFileSync(sources, 'utf8')
      .split('\n')
      .filter((line) => /^\| [^|]+ \| [^|]+\/[^|]+ \| /.test(line) && !line.startsWith('| file '))
      .map((line) => line.split('|').slice(1, 5).map((cell) => cell.trim()));
    expect(rows.length).toBeGreaterThan(0);
    for (const [file, repository, path, commit] of rows) {
      expect(manifest().get(file!), file).toMatchObject({ repository, path, commit });
    }
  });
});

describe('the repository commits no file from another project', () => {
  it('no tracked file has the bytes of a file the manifest lists, or of any file in the corpus folder', () => {
    const listed = new Set([...manifest().values()].map((entry) => entry.sha256));
    const corpus = existsSync(corpusRoot()) ? filesUnder(corpusRoot()).map(sha256) : [];
    const foreign = new Set([...listed, ...corpus]);
    expect(tracked().filter((path) => foreign.has(sha256(path)))).toEqual([]);
    expect(tracked().filter((path) => path.startsWith('test/fixtures/corpus/') || path.endsWith('.proto'))).toEqual([]);
  });

  it('only test/public-corpus.ts names the folder beside the checkout', () => {
    const roots = ['test', 'src', 'scripts', 'bench', '.ci'];
    const outside = tracked()
      .filter((path) => roots.some((root) => path.startsWith(`${root}/`)))
      .filter((path) => /\.(ts|mts|js|mjs|cjs|sh)$/.test(path) || path.startsWith('.ci/'))
      .filter((path) => path !== 'test/public-corpus.ts' && path !== 'test/ingest/corpus-sources.test.ts')
      .filter((path) => /\.\.\/(\.\.\/)*shared\/|'shared', 'corpus'/.test(readFileSync(path, 'utf8')));
    expect(outside).toEqual([]);
    expect(readFileSync('package.json', 'utf8')).not.toMatch(/\.\.\/shared/);
  });
});
