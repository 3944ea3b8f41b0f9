import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// The bench's own generators (bench/formats/): seeded, with the counts of what they wrote.
import { GENERATORS, writeSessions, type SessionGenerator } from '../../../bench/formats/index.mjs';
import { tempDir } from '../../helpers.js';

const MB = 1_000_000;

/** Audits `file` with the bundled CLI; returns the report and the peak RSS in MiB (the bench's probe). */
function auditDist(dir: string, file: string): { report: Report; rssMiB: number } {
  const rssFile = join(dir, `${file}.rss`);
  const out = join(dir, `${file}.json`);
  const run = spawnSync(process.execPath, ['--import', resolve('bench/rss-probe.mjs'), resolve('dist/cli.js'), 'audit', join(dir, file), '--format', 'json', '--fail-on', 'never', '-o', out], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], BENCH_RSS_FILE: rssFile },
  });
  expect(run.status).toBe(0);
  const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
  expect(run.stderr).toBe(notGated(report.summary.findings));
  return { report, rssMiB: Number(readFileSync(rssFile, 'utf8').trim()) / 1024 / 1024 };
}

interface Report {
  files: Array<{ format: string; records: number; runs: number }>;
  runs: Array<{ toolCalls: number; toolResults: number }>;
  summary: { findings: { error: number; warning: number; note: number } };
}

/** The one-line verdict the CLI prints on stderr with -o and --fail-on never, from the report's counts. */
function notGated(findings: Report['summary']['findings']): string {
  const words = [[findings.error, 'error'], [findings.warning, 'warning'], [findings.note, 'note']] as const;
  const found = words.filter(([n]) => n > 0).map(([n, w]) => `${n.toLocaleString('en-US')} ${w}${n === 1 ? '' : 's'}`);
  return `✅ not gated (fail-on: never): ${found.length > 0 ? found.join(', ') : 'no findings'}\n`;
}

// Files of many sessions one after another: every session's state is released when it
// goes idle, so the peak RSS of the 2x file is that of the 1x file (a loaded machine
// moves both; the margins are wide), and far under the 250 MiB of issue 22.
// The JSONL session generators of the registry (its documents and OTLP/OpenAI forms have rows of their own).
const SESSIONS = GENERATORS.filter((g): g is SessionGenerator => g.session !== undefined);

describe.each(SESSIONS.map((g) => [g.id, g] as const))('%s JSONL streams in flat memory (dist/cli.js)', (id, generator) => {
  it('reads every session of a 25 MB and a 50 MB file, with peak RSS flat in file size', async () => {
    const dir = tempDir();
    const rss: number[] = [];
    for (const size of [25, 50]) {
      const file = `${id}-${size}.jsonl`;
      const counts = await writeSessions(join(dir, file), generator, size * MB, 7);
      const { report, rssMiB } = auditDist(dir, file);
      expect(report.files.map((f) => [f.format, f.records, f.runs])).toEqual([[id, counts.records, counts.sessions]]);
      expect([report.runs.reduce((n, r) => n + r.toolCalls, 0), report.runs.reduce((n, r) => n + r.toolResults, 0)]).toEqual([counts.calls, counts.results]);
      rss.push(rssMiB);
    }
    expect(rss[1]!).toBeLessThan(250);
    expect(rss[1]! / rss[0]!).toBeGreaterThan(0.75);
    expect(rss[1]! / rss[0]!).toBeLessThan(1.25);
  }, 240_000);
});
