import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The public corpus lives inside the repository, so a clone from GitHub tests itself.
const CORPUS = 'test/fixtures/corpus';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

interface SourceRow {
  file: string;
  repo: string;
  path: string;
  commit: string;
}

function sourceRows(): SourceRow[] {
  return readFileSync(join(CORPUS, 'SOURCES.md'), 'utf8')
    .split('\n')
    .filter((line) => /^\| [^|]+ \| [^|]+\/[^|]+ \| /.test(line) && !line.startsWith('| file '))
    .map((line) => {
      const [file, repo, path, commit] = line.split('|').slice(1, 5).map((cell) => cell.trim());
      return { file: file!, repo: repo!, path: path!, commit: commit! };
    });
}

describe('test/fixtures/corpus: every public file has its source and its license', () => {
  it('every corpus file has exactly one SOURCES.md row, and every row names a file that is there', () => {
    const files = filesUnder(CORPUS)
      .map((path) => relative(CORPUS, path))
      .filter((path) => path !== 'SOURCES.md' && !path.startsWith('licenses/'))
      .sort();
    const rows = sourceRows();
    expect(rows.map((row) => row.file).sort()).toEqual(files);
    expect(new Set(rows.map((row) => row.file)).size).toBe(rows.length);
  });

  it('every row names a full commit, and its repository has its license text in licenses/', () => {
    const licenses = new Set(readdirSync(join(CORPUS, 'licenses')));
    for (const row of sourceRows()) {
      expect(row.commit, row.file).toMatch(/^[0-9a-f]{40}$/);
      const license = `${row.repo.replace('/', '-')}.LICENSE`;
      expect(licenses.has(license), `${row.file}: licenses/${license}`).toBe(true);
      expect(readFileSync(join(CORPUS, 'licenses', license), 'utf8'), license).toMatch(/license/i);
    }
  });
});

describe('the repository stands on its own', () => {
  it('no test, source, script, bench or CI file reads a folder beside the checkout', () => {
    const roots = ['test', 'src', 'scripts', 'bench', '.ci'];
    const outside = roots
      .flatMap((root) => filesUnder(root))
      .filter((path) => /\.(ts|mts|js|mjs|cjs|sh)$/.test(path) || path.startsWith('.ci/'))
      .filter((path) => path !== join('test', 'ingest', 'corpus-sources.test.ts'))
      .filter((path) => /\.\.\/(\.\.\/)*shared\//.test(readFileSync(path, 'utf8')));
    expect(outside).toEqual([]);
    expect(readFileSync('package.json', 'utf8')).not.toMatch(/\.\.\/shared/);
  });
});
