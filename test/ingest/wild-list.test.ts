import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/ingest/registry.js';
import { manifest } from '../public-corpus.js';

// The out-of-repository check (docs/wild-check.md): its list must name public files that
// are NOT in the public corpus (test/fixtures/public-corpus.json), each at a commit, with an expected format this tool has.
describe('test/fixtures/wild-list.json', () => {
  const list = JSON.parse(readFileSync('test/fixtures/wild-list.json', 'utf8')) as {
    files: Array<{ repo: string; path: string; commit: string; format: string; expected: Record<string, number>; counted: string }>;
  };
  const corpus = new Set([...manifest().values()].map((entry) => `${entry.repository}:${entry.path}`));

  it('lists 46 files, each with a commit, a known format and the four expected counts', () => {
    expect(list.files).toHaveLength(46);
    const ids = new Set([...FORMATS.map((f) => f.id), 'unknown']);
    for (const file of list.files) {
      expect(file.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(ids.has(file.format), file.format).toBe(true);
      expect(Object.keys(file.expected).sort()).toEqual(['calls', 'malformed', 'orphans', 'results']);
      expect(file.counted.length).toBeGreaterThan(0);
    }
  });

  it('names no file that the corpus holds (they are tried from outside the repository)', () => {
    expect(corpus.size).toBeGreaterThan(40);
    expect(list.files.filter((f) => corpus.has(`${f.repo}:${f.path}`)).map((f) => f.path)).toEqual([]);
  });
});
