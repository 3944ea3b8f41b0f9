import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';

const CLI = resolve('dist/cli.js');

/**
 * A run holds no payloads (src/audit/held/hold.ts): its calls and results keep a few
 * small fields, not their arguments and content. A single-run ADK session of 40 MB
 * whose 2,433 results carry 8 KB each is audited in a 32 MB old space; holding the
 * payloads until the run ends (as before) ran out of heap there (it needed about 48 MB).
 */
interface Audited {
  files: Array<{ format: string }>;
  summary: { runs: number; toolCalls: number; toolResults: number };
}

/** Writes a one-run document of `format` (40 MB, 8 KB payloads), checks its call count, and audits it with the bundled CLI in a 32 MB old space. */
function auditInSmallHeap(format: string, calls: number): Audited {
  const root = tempDir();
  const file = join(root, `${format}.json`);
  const gen = spawnSync(process.execPath, [resolve('bench/formats/documents.mjs'), format, file, '40', '8'], { encoding: 'utf8' });
  expect(gen.status).toBe(0);
  expect((JSON.parse(gen.stdout) as { calls: number }).calls).toBe(calls);
  expect(statSync(file).size).toBeGreaterThan(40 * 1024 * 1024);
  const out = join(root, 'report.json');
  const run = spawnSync(process.execPath, ['--max-old-space-size=32', CLI, 'audit', file, '--format', 'json', '-o', out, '--fail-on', 'never', '--jobs', '1'], { encoding: 'utf8' });
  // The one-line verdict (the report went to a file): the run's catalog-missing note.
  expect(run.stderr).toBe('✅ not gated (fail-on: never): 1 note\n');
  expect(run.status).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as Audited;
}

describe('a single run in bounded memory: its records are held without payloads', () => {
  it('a 40 MB one-run ADK session with 8 KB results in a 32 MB heap (bundled CLI)', () => {
    expect(auditInSmallHeap('google-adk', 2433).summary).toMatchObject({ runs: 1, toolCalls: 2433, toolResults: 2433 });
  }, 300_000);

  it('a 40 MB one-trace Langfuse export with 8 KB tool outputs in a 32 MB heap (bundled CLI)', () => {
    // Its TOOL observations were kept, input and output, until the export ended (in the
    // reader's set of tool spans): the audit ran out of this heap.
    const report = auditInSmallHeap('langfuse', 4947);
    expect(report.files.map((f) => f.format)).toEqual(['langfuse']);
    expect(report.summary).toMatchObject({ runs: 1, toolCalls: 4947, toolResults: 4947 });
  }, 300_000);
});
