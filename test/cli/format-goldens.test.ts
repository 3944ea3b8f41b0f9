import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBundle } from './run-cli.js';

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
