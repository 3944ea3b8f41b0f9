import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The test files that run a built bundle (dist/cli.js, dist/index.js) in child processes,
 * start Azurite or Chromium, write and read files of many MB, or take several seconds of
 * CPU in-process (the public corpus through every reader): the `slow` project.
 * Everything else is the `unit` project, `npm run test:quick` (a test file a branch adds
 * lands there unless it matches a line below: add its folder or file when it spawns a bundle).
 * `npm test` runs both in one pool, the slow files first (vitest orders projects by name,
 * and within one the longest known first), so they run beside the quick ones.
 */
const SLOW = [
  'test/bench/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/github/**/*.test.ts',
  'test/hostile/**/*.test.ts',
  'test/ingest/big/**/*.test.ts',
  'test/report/html/**/*.test.ts',
  'test/report/comment-pr.test.ts',
  'test/report/comment-render.test.ts',
  'test/report/json.test.ts',
  'test/report/mermaid.test.ts',
  'test/receiver/run-command.test.ts',
  'test/receiver/throughput.test.ts',
  'test/audit/route/**/*.test.ts',
  'test/audit/rule-doc-examples.test.ts',
  'test/action/**/*.test.ts',
  'test/ingest/langfuse/streamed-exports.test.ts',
  'test/ingest/stream-documents.test.ts',
  'test/ingest/corpus-sources.test.ts',
  'test/ingest/streaming/**/*.test.ts',
  'test/heap-growth.test.ts',
  'test/io/line-splitter.test.ts',
  'test/seal/seal-documents.test.ts',
  'test/receiver/otlp-descriptor.test.ts',
  'test/package-engines.test.ts',
  'test/system-tools.test.ts',
  // They run the bundled CLI (dist/cli.js) as a user would.
  'test/doc-examples/**/*.test.ts',
  'test/audit/coverage-scan.test.ts',
  'test/config/config.test.ts',
  'test/ingest/cassette/recorders-cli.test.ts',
  'test/ingest/custom/**/*.test.ts',
  'test/io/cassette-folder.test.ts',
  'test/seal/redact.test.ts',
  'test/seal/verify-artifact.test.ts',
  'test/seeds/seed-examples.test.ts',
  // In-process, but each several seconds of CPU: every corpus file through every reader,
  // fast-check runs, 100,000-record shelves and chains.
  'test/ingest/forced-formats.test.ts',
  'test/ingest/detection.test.ts',
  'test/ingest/trajectory-span-forced.test.ts',
  'test/seal/fast-path.test.ts',
  'test/seal/chain.test.ts',
  'test/audit/held/run-shelf.test.ts',
  'test/receiver/receiver.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default on 2 cores is one worker (cores − 1), which leaves a core idle while
    // a test waits for a child process. One worker per core (two at least): the slow files'
    // children and the unit files share the cores.
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker keeps the modules it loaded from one test file to the next (no fresh module
    // graph per file: importing src/ afresh cost about a second of CPU per file). No test
    // mocks modules or stubs globals; a hook every file needs is registered by the setup file,
    // which runs before each file (a shared module's top level runs once per worker).
    isolate: false,
    setupFiles: ['test/each-file-setup.ts'],
    // The second reporter counts the tests skipped for a missing public corpus (test/public-corpus.ts).
    reporters: ['default', './test/public-corpus-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'slow', include: SLOW } },
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: SLOW } },
    ],
  },
});
