import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { auditPaths, materializeOutcome, type AuditRequest } from '../../src/core.js';
import type { Logger } from '../../src/logger.js';
import { renderJson, renderJsonPieces, writeJsonFile, writePieces } from '../../src/report/render/json.js';
import type { Report } from '../../src/report/schema.js';
import { judgeCounts, type JudgeOptions } from '../../src/report/verdict/judge.js';
import { jsonl, reportOfFiles, tempDir } from '../helpers.js';

/** What the JSON report's bytes must be: JSON.stringify's, two-space indented, and a newline. */
const stringify = (report: unknown) => `${JSON.stringify(report, null, 2)}\n`;

const quiet: Logger = { info() {}, warning() {}, error() {}, debug() {} };
const scratch = tempDir('ata-json-test-');

/** The verdict as `audit --format json --fail-on never` judges a report (no baseline): it leads the JSON report. */
const NEVER: JudgeOptions = { config: { failOn: 'never' }, baseline: null, defaultGate: 'all', allowEmpty: false };

/** The streamed JSON report of an audit whose findings spill beyond `threshold` (judged, as the CLI writes it, with `judged`), and the folder it spilled into. */
async function streamed(request: Omit<AuditRequest, 'spill'>, threshold: number, judged = false): Promise<{ text: string; spilled: boolean; left: string[] }> {
  const tmpRoot = tempDir('ata-json-spill-');
  const outcome = await auditPaths({ ...request, spill: { threshold, tmpRoot } }, quiet);
  let text: string;
  let spilled: boolean;
  try {
    spilled = outcome.result.store.spilled;
    text = [...renderJsonPieces(judged ? judgeCounts(outcome.report, NEVER).report : outcome.report)].join('');
  } finally {
    outcome.result.store.close();
  }
  return { text, spilled, left: readdirSync(tmpRoot) };
}

describe('the streamed JSON report', () => {
  const configFile = { 'fail-on': 'never' } as const;
  const config = resolveConfig(configFile);
  // Past the default finding caps: the tests below need thousands of findings in one file.
  const uncapped = { ...configFile, limits: { 'max-findings-per-rule': 1_000_000, 'max-findings': 1_000_000 } };

  it('equals JSON.stringify of the materialized report byte for byte on examples/ (spilled or not), and the golden file', async () => {
    const request = { paths: ['examples'], root: process.cwd(), config, strictPaths: true };
    // Judged as the CLI judges it (the golden file is `audit examples --format json --fail-on never`, test/cli/audit.test.ts): its verdict before the findings.
    const { report } = judgeCounts(materializeOutcome(await auditPaths(request, quiet)).report, NEVER);
    const whole = stringify(report);
    // The golden is what `audit --format json` writes: the report judged (the verdict after the summary).
    const judged = judgeCounts(report, { config, baseline: null, defaultGate: 'all', allowEmpty: false }).report;
    expect(stringify(judged)).toBe(readFileSync('test/fixtures/golden/examples.json', 'utf8'));
    expect(renderJson(report)).toBe(whole);
    expect(report.findings.length).toBeGreaterThan(5);
    for (const threshold of [1, 2, 5, 20_000]) {
      const { text, spilled, left } = await streamed(request, threshold, true);
      expect(text).toBe(whole);
      expect(spilled).toBe(threshold < report.findings.length);
      expect(left).toEqual([]);
    }
  });

  it('equals it on a generated span log with a tiny spill threshold', async () => {
    const log = join(scratch, 'spans.jsonl');
    const gen = spawnSync(process.execPath, ['bench/gen-span-log.mjs', log, '40', '80'], { encoding: 'utf8' });
    expect(gen.status).toBe(0);
    const request = { paths: [log], root: scratch, config, strictPaths: true };
    const whole = stringify(materializeOutcome(await auditPaths(request, quiet)).report);
    expect(JSON.parse(whole).findings.length).toBeGreaterThan(50);
    const { text, spilled, left } = await streamed(request, 7);
    expect(spilled).toBe(true);
    expect(text).toBe(whole);
    expect(left).toEqual([]);
  });

  it('equals it for reports with no findings, a key after the findings, and a key left undefined', async () => {
    // An empty file gets one note that it holds no tool calls; the case with no findings drops it.
    const noted = await reportOfFiles({ 'a.jsonl': '' }, configFile);
    expect(noted.findings.map((f) => f.ruleId)).toEqual(['ingest-note']);
    const clean: Report = { ...noted, findings: [] };
    const dirty = await reportOfFiles({ 'a.jsonl': jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 't' }) }, configFile);
    expect(clean.findings).toEqual([]);
    const cases: Report[] = [
      clean,
      dirty,
      { ...dirty, artifacts: [{ name: 'agent-traces-1', id: 7, digest: `sha256:${'1'.repeat(64)}`, files: 2 }] },
      { ...clean, artifacts: [] },
      { ...dirty, catalogs: undefined } as unknown as Report,
    ];
    for (const report of cases) expect([...renderJsonPieces(report)].join('')).toBe(stringify(report));
  });

  it('renders the list of runs an element at a time, in bounded pieces, with the bytes of JSON.stringify', async () => {
    const records: unknown[] = [];
    for (let r = 0; r < 3000; r += 1) records.push({ run_id: `run-${r}`, kind: 'llm' });
    const report = await reportOfFiles({ 'a.jsonl': jsonl(...records) }, uncapped);
    expect(report.runs).toHaveLength(3000);
    expect(report.findings.length).toBeLessThan(10);
    const pieces = [...renderJsonPieces(report)];
    for (const piece of pieces) expect(piece.length).toBeLessThan(80 * 1024);
    expect(pieces.join('')).toBe(stringify(report));
    // Lists of other shapes too: empty, scalars, and elements JSON.stringify writes as null.
    const odd = { ...report, runs: [], catalogs: [1, 'two', null, undefined, [3, [4]], {}] } as unknown as Report;
    expect([...renderJsonPieces(odd)].join('')).toBe(stringify(odd));
  });

  it('comes in pieces of bounded size', async () => {
    const records: unknown[] = [];
    for (let c = 0; c < 3000; c += 1) records.push({ run_id: 'r', kind: 'tool_call', call_id: `c${c}`, tool: 't' });
    const report = await reportOfFiles({ 'a.jsonl': jsonl(...records) }, uncapped);
    const pieces = [...renderJsonPieces(report)];
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces) expect(piece.length).toBeLessThan(80 * 1024);
    expect(pieces.join('')).toBe(stringify(report));
  });

  it('is written with backpressure: a slow stream gets every byte, in order', async () => {
    const records: unknown[] = [];
    for (let c = 0; c < 1500; c += 1) records.push({ run_id: 'r', kind: 'tool_call', call_id: `c${c}`, tool: 't' });
    const report = await reportOfFiles({ 'a.jsonl': jsonl(...records) }, uncapped);
    const received: Buffer[] = [];
    let waits = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk);
        waits += 1;
        setTimeout(callback, 1);
      },
    });
    await writePieces(renderJsonPieces(report), slow, { end: false });
    expect(slow.writableEnded).toBe(false);
    expect(waits).toBeGreaterThan(1);
    expect(Buffer.concat(received).toString('utf8')).toBe(stringify(report));

    const file = join(scratch, 'report.json');
    await writeJsonFile(report, file);
    expect(readFileSync(file, 'utf8')).toBe(stringify(report));
  });
});
