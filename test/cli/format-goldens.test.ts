import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { corpusFile, corpusFilesUnder, corpusRoot, describeCorpus } from '../public-corpus.js';
import { runBundle } from './run-cli.js';

// One golden JSON report per format this branch reads anew or reads differently, from the real
// bundle. The counts inside are checked against the files independently in test/ingest/**;
// the goldens pin the whole report (skips, notes, messages) byte for byte.
// Regenerate with UPDATE_GOLDEN=1 after a deliberate change, and read the diff. Public files are
// audited from the corpus folder, so that the reports show them by their path in it.
const PUBLIC_CASES: ReadonlyArray<[string, string]> = [
  ['langfuse-koog', 'langfuse/koog.trace.json'],
  ['langfuse-beeai', 'langfuse/beeai.trace.json'],
  ['anthropic-cassette', 'cassettes/openllmetry-anthropic-tools-history.yaml'],
  ['openai-cassette', 'cassettes/openllmetry-openai-chat-tool-calls.yaml'],
  ['unknown-jsonl', 'unrelated/multi-swe-bench-patch.jsonl'],
];
const OWN_CASES: ReadonlyArray<[string, string]> = [['tool-events', 'test/fixtures/tool-events/claude-code-hooks.jsonl']];

/** A file of no format is nothing audited: exit 1 even at --fail-on never, 0 with --allow-empty (same report). */
const EMPTY_CASES = new Set(['unknown-jsonl']);

function jsonGolden(name: string, path: string, cwd: string): void {
  const empty = EMPTY_CASES.has(name);
  if (empty) expect(runBundle(['audit', path, '--format', 'json', '--fail-on', 'never'], cwd).code).toBe(1);
  const { code, stdout, stderr } = runBundle(['audit', path, '--format', 'json', '--fail-on', 'never', ...(empty ? ['--allow-empty'] : [])], cwd);
  expect([code, stderr]).toEqual([0, '']);
  reportSchema.parse(JSON.parse(stdout));
  const golden = `test/fixtures/golden/formats/${name}.json`;
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync('test/fixtures/golden/formats', { recursive: true });
    writeFileSync(golden, stdout);
  }
  expect(stdout).toBe(readFileSync(golden, 'utf8'));
}

describeCorpus('golden JSON reports, one per format, of public files (dist/cli.js)', PUBLIC_CASES.map(([, path]) => path), () => {
  for (const [name, path] of PUBLIC_CASES) it(`${name}: ${path}`, () => jsonGolden(name, path, corpusRoot()));
});

describe('golden JSON reports, one per format (dist/cli.js)', () => {
  for (const [name, path] of OWN_CASES) it(`${name}: ${path}`, () => jsonGolden(name, path, '.'));
});

/** One folder of real (or, for ATIF, hand-written) files per format added for issue 18. */
const PUBLIC_FORMATS: Array<[id: string, folder: string]> = [
  ['codex-rollout', 'codex'],
  ['gemini-cli', 'gemini-cli'],
  ['openhands', 'openhands'],
  ['google-adk', 'google-adk'],
  ['otel-spans', 'otel-spans'],
  ['claude-code-export', 'claude-code-export'],
];
const FORMATS: Array<[id: string, folder: string]> = [...PUBLIC_FORMATS, ['atif', 'test/fixtures/atif']];

function textGolden(id: string, paths: string[], cwd: string): void {
  const { code, stdout, stderr } = runBundle(['audit', ...paths, '--format', 'text', '--fail-on', 'never'], cwd);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const golden = `test/fixtures/golden/formats/${id}.txt`;
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync('test/fixtures/golden/formats', { recursive: true });
    writeFileSync(golden, stdout);
  }
  expect(stdout).toBe(readFileSync(golden, 'utf8'));
}

describeCorpus('golden text report of each format, from its public files (dist/cli.js)', PUBLIC_FORMATS.flatMap(([, folder]) => corpusFilesUnder(folder)), () => {
  it.each(PUBLIC_FORMATS)('%s: the report of %s equals test/fixtures/golden/formats/<id>.txt', (id, folder) => textGolden(id, corpusFilesUnder(folder), corpusRoot()));
});

describe('golden text report of each format (dist/cli.js)', () => {
  it('atif: the report of test/fixtures/atif equals test/fixtures/golden/formats/atif.txt', () => textGolden('atif', ['test/fixtures/atif'], '.'));
});

describeCorpus('--input-format accepts each new id (dist/cli.js)', ['codex/agent-history-golden.jsonl'], () => {
  it('forces a format by its id, and names every id when given an unknown one', () => {
    const forced = runBundle(['audit', corpusFile('codex/agent-history-golden.jsonl'), '--input-format', 'codex-rollout', '--format', 'json', '--fail-on', 'never'], '.');
    expect(forced.code).toBe(0);
    expect((JSON.parse(forced.stdout) as { files: Array<{ format: string }> }).files.map((f) => f.format)).toEqual(['codex-rollout']);
    const wrong = runBundle(['audit', 'x.jsonl', '--input-format', 'codex'], '.');
    expect(wrong.code).toBe(2);
    for (const [id] of FORMATS) expect(wrong.stderr).toContain(id);
  });
});
