import { existsSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { CORPUS_MARK, corpusRoot } from './public-corpus.js';

/** Prints one line counting the tests skipped because public corpus files are absent (test/public-corpus.ts). */
export default class PublicCorpusReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        if (test.fullName.includes(CORPUS_MARK) && test.result().state === 'skipped') skipped += 1;
      }
    }
    if (skipped === 0) return;
    const root = corpusRoot();
    const why = existsSync(root) ? `public corpus at ${root} lacks files the manifest lists (pending ones are added after their change lands)` : `public corpus not found at ${root}`;
    process.stdout.write(`${why}: ${skipped} tests skipped (see test/fixtures/public-corpus.md)\n`);
  }
}
