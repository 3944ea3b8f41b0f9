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

/** One folder of real (or, for ATIF, hand-written) files per format added for issue 18. */
const FORMATS: Array<[id: string, folder: string]> = [
  ['codex-rollout', 'test/fixtures/corpus/codex'],
  ['gemini-cli', 'test/fixtures/corpus/gemini-cli'],
  ['openhands', 'test/fixtures/corpus/openhands'],
  ['atif', 'test/fixtures/atif'],
  ['google-adk', 'test/fixtures/corpus/google-adk'],
  ['otel-spans', 'test/fixtures/corpus/otel-spans'],
  ['claude-code-export', 'test/fixtures/corpus/claude-code-export'],
];

describe('golden text report of each format (dist/cli.js)', () => {
  it.each(FORMATS)('%s: the report of %s equals test/fixtures/golden/formats/<id>.txt', (id, folder) => {
    const { code, stdout, stderr } = runBundle(['audit', folder, '--format', 'text', '--fail-on', 'never'], '.');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const golden = `test/fixtures/golden/formats/${id}.txt`;
    if (process.env['UPDATE_GOLDEN'] === '1') {
      mkdirSync('test/fixtures/golden/formats', { recursive: true });
      writeFileSync(golden, stdout);
    }
    expect(stdout).toBe(readFileSync(golden, 'utf8'));
  });
});

describe('--input-format accepts each new id (dist/cli.js)', () => {
  it('forces a format by its id, and names every id when given an unknown one', () => {
    const forced = runBundle(['audit', 'test/fixtures/corpus/codex/agent-history-golden.jsonl', '--input-format', 'codex-rollout', '--format', 'json', '--fail-on', 'never'], '.');
    expect(forced.code).toBe(0);
    expect((JSON.parse(forced.stdout) as { files: Array<{ format: string }> }).files.map((f) => f.format)).toEqual(['codex-rollout']);
    const wrong = runBundle(['audit', 'x.jsonl', '--input-format', 'codex'], '.');
    expect(wrong.code).toBe(2);
    for (const [id] of FORMATS) expect(wrong.stderr).toContain(id);
  });
});
