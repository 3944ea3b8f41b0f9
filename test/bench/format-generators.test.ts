import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// The bench's one registry of per-format generators, and the writers it is made of.
import { GENERATORS } from '../../bench/formats/index.mjs';
import { FORMS } from '../ingest/big/gen-big.mjs';
import { FORMATS } from '../../src/ingest/registry.js';
import { tempDir } from '../helpers.js';

const MB = 1_000_000;

// CLI formats the per-format rows do not generate, and why: a new format must be added
// to the registry (with a generator) or here.
const NOT_GENERATED: Record<string, string> = {
  'native-jsonl': "the bench's own span-log rows (bench/gen-span-log.mjs)",
  'boundary-json': 'a boundary document holds one run of the native shape',
  'anthropic-messages': 'no generator yet',
  'otel-spans': 'no generator yet',
  'swe-agent': 'no generator yet (one trajectory per task: files stay small)',
  'mini-swe-agent': 'no generator yet (one trajectory per task: files stay small)',
  'any-agent': 'no generator yet (the otel-spans reader, whose rows are not generated either)',
  agentbench: 'no generator yet (one conversation per task: files stay small)',
  'gemini-api': 'no generator yet (request/response documents: files stay small)',
  bedrock: 'no generator yet (recorded Bedrock cassettes: one interaction per model call, files stay small)',
  letta: 'no generator yet (an agent file or message export: files stay small)',
  'seal-checkpoint': 'the checkpoint `seal` writes: redaction receipts, no tool calls',
};

describe('the per-format generator registry (bench/formats/index.mjs)', () => {
  it('names each row once, and each names a format the CLI knows', () => {
    const ids = GENERATORS.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    const known = FORMATS.map((f) => f.id);
    expect(GENERATORS.map((g) => g.format).filter((id) => !known.includes(id))).toEqual([]);
  });

  it('covers every format the CLI knows, but those listed with a reason', () => {
    const generated = new Set(GENERATORS.map((g) => g.format));
    expect(FORMATS.map((f) => f.id).filter((id) => !generated.has(id)).sort()).toEqual(Object.keys(NOT_GENERATED).sort());
  });

  it("holds every writer's forms: the eight documents, gen-big's six, each session generator of bench/formats/", async () => {
    const documents = await import('../../bench/formats/documents.mjs');
    const byWriter = (source: string) => GENERATORS.filter((g) => g.sources.some((s) => s.endsWith(source)));
    expect(byWriter('documents.mjs').map((g) => g.format)).toEqual(documents.DOCUMENT_FORMATS);
    expect(byWriter('gen-big.mjs').map((g) => g.id)).toEqual([...FORMS]);
    // Every module but the baselines (scripts that run when loaded).
    const dir = resolve('bench/formats');
    const sessionIds: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.mjs') && !f.startsWith('baseline-'))) {
      const module = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
      for (const value of Object.values(module)) {
        const session = value as { id?: string; session?: unknown } | null;
        if (typeof session?.session === 'function' && !sessionIds.includes(session.id!)) sessionIds.push(session.id!);
      }
    }
    expect(sessionIds.sort()).toEqual(GENERATORS.filter((g) => g.session !== undefined).map((g) => g.id).sort());
    expect(sessionIds).toHaveLength(5);
  });
});

interface Report {
  files: Array<{ format: string }>;
  summary: { runs: number; toolCalls: number; toolResults: number; findings: { error: number; warning: number; note: number } };
}

/** The one-line verdict the CLI prints on stderr with -o and --fail-on never, from the report's counts. */
function notGated(findings: Report['summary']['findings']): string {
  const words = [[findings.error, 'error'], [findings.warning, 'warning'], [findings.note, 'note']] as const;
  const found = words.filter(([n]) => n > 0).map(([n, w]) => `${n.toLocaleString('en-US')} ${w}${n === 1 ? '' : 's'}`);
  return `✅ not gated (fail-on: never): ${found.length > 0 ? found.join(', ') : 'no findings'}\n`;
}

// A generator that drifts from its format fails here: its 1 MB file must be detected as
// that format by the bundled CLI, with every run, call and result the generator counted.
describe.each(GENERATORS.map((g) => [g.id, g] as const))('generator %s (1 MB, dist/cli.js)', (id, generator) => {
  it('writes a file the CLI reads as its format, with the counted runs, calls and results', async () => {
    const dir = tempDir();
    const file = join(dir, `${id}.${generator.ext}`);
    const counts = await generator.write(file, MB, 7);
    expect(counts.bytes).toBeGreaterThanOrEqual(MB);
    expect(counts.calls).toBeGreaterThan(100);
    const out = join(dir, 'report.json');
    const run = spawnSync(process.execPath, [resolve('dist/cli.js'), 'audit', file, '--format', 'json', '--fail-on', 'never', '-o', out], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(run.stderr).toBe(notGated(report.summary.findings));
    expect(report.files.map((f) => f.format)).toEqual([generator.format]);
    expect(report.summary).toMatchObject({ runs: counts.runs, toolCalls: counts.calls, toolResults: counts.results });
  }, 60_000);
});
