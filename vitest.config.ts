import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The second reporter counts the tests skipped for a missing public corpus (test/public-corpus.ts).
    reporters: ['default', './test/public-corpus-reporter.ts'],
  },
});
