import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { runBundle } from './run-cli.js';

// One golden JSON report per format this branch reads anew or reads differently, from the real
// bundle. The counts inside are checked against the files independently in test/ingest/**;
// the goldens pin the whole report (skips, notes, messages) byte for byte.
// Regenerate with UPDATE_GOLDEN=1 after a deliberate change, and read the diff.
const CASES: ReadonlyArray<[string, string]> = [
  ['langfuse-koog', 'test/fixtures/corpus/langfuse/koog.trace.json'],
  ['langfuse-beeai', 'test/fixtures/corpus/langfuse/beeai.trace.json'],
  ['anthropic-cassette', 'test/fixtures/corpus/cassettes/openllmetry-anthropic-tools-history.yaml'],
  ['openai-cassette', 'test/fixtures/corpus/cassettes/openllmetry-openai-chat-tool-calls.yaml'],
  ['tool-events', 'test/fixtures/tool-events/claude-code-hooks.jsonl'],
  ['unknown-jsonl', 'test/fixtures/corpus/unrelated/multi-swe-bench-patch.jsonl'],
];

describe('golden JSON reports, one per format (dist/cli.js)', () => {
  for (const [name, path] of CASES) {
    it(`${name}: ${path}`, () => {
      const { code, stdout, stderr } = runBundle(['audit', path, '--format', 'json', '--fail-on', 'never'], '.');
      expect([code, stderr]).toEqual([0, '']);
      reportSchema.parse(JSON.parse(stdout));
      const golden = `test/fixtures/golden/formats/${name}.json`;
      if (process.env['UPDATE_GOLDEN'] === '1') {
        mkdirSync('test/fixtures/golden/formats', { recursive: true });
        writeFileSync(golden, stdout);
      }
      expect(stdout).toBe(readFileSync(golden, 'utf8'));
    });
  }
});
