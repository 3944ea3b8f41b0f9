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
