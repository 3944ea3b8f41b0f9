import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, tempTree } from '../helpers.js';
import { runBundle } from './run-cli.js';

/** Threads whatever the input's size (the CLI starts them from 48 MiB: src/audit/engine/pool-plan.ts). */
const POOLED = { AGENT_TRACE_AUDIT_POOL_MIN_BYTES: '0' };

describe('audit --jobs (worker threads in dist/cli.js)', () => {
  it('gives byte-identical reports with 1, 2 and 3 workers', () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 5; f += 1) {
      const records: unknown[] = [];
      for (let c = 0; c < 40; c += 1) {
        records.push({ run_id: `r${f}`, kind: 'llm' }, { run_id: `r${f}`, kind: 'tool_call', call_id: `c${c}`, tool: 'grep', args: { q: c % 7 } });
        if (c % 9 !== 0) records.push({ run_id: `r${f}`, kind: 'tool_result', call_id: `c${c}`, tool: 'grep', ...(c % 5 === 0 ? { error: 'boom' } : {}) });
      }
      files[`shard-${f}.jsonl`] = jsonl(...records) + (f === 3 ? 'not json\n' : '');
    }
    const root = tempTree(files);
    const one = runBundle(['audit', '.', '--format', 'json', '--jobs', '1'], root);
    expect(one.code).toBe(1);
    for (const jobs of ['2', '3']) {
      const many = runBundle(['audit', '.', '--format', 'json', '--jobs', jobs], root, POOLED);
      expect(many.stderr).toBe('');
      expect(many.stdout).toBe(one.stdout);
    }
    expect(JSON.parse(one.stdout).summary.files).toBe(5);
  });

  it('refuses an AGENT_TRACE_AUDIT_POOL_MIN_BYTES that is not a whole number of bytes', () => {
    const { code, stderr } = runBundle(['audit', '.', '--jobs', '2'], tempTree({ 'a.jsonl': '' }), { AGENT_TRACE_AUDIT_POOL_MIN_BYTES: '1 MiB' });
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe('usage: AGENT_TRACE_AUDIT_POOL_MIN_BYTES must be a whole number of bytes (0 or more), not "1 MiB"');
  });

  it('refuses a bad --jobs value', () => {
    const { code, stderr } = runBundle(['audit', '.', '--jobs', '0'], tempTree({ 'a.jsonl': '' }));
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe('usage: --jobs must be a whole number from 1 to 256, not "0"');
  });
});

describe('audit --format html with workers', () => {
  it('draws the same timelines with 1 and 2 workers (they are collected in the workers)', () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 3; f += 1) {
      files[`t-${f}.jsonl`] = jsonl(
        { ts: 1000 + f, run_id: `r${f}`, kind: 'llm' },
        { ts: 1010 + f, run_id: `r${f}`, kind: 'tool_call', call_id: 'c1', tool: 'grep' },
        { ts: 1050 + f, run_id: `r${f}`, kind: 'tool_result', call_id: 'c1', tool: 'grep' },
        { ts: 1060 + f, run_id: `r${f}`, kind: 'tool_call', call_id: 'c2', tool: 'ls' },
      );
    }
    const root = tempTree(files);
    const one = runBundle(['audit', '.', '--format', 'html', '--jobs', '1'], root);
    const two = runBundle(['audit', '.', '--format', 'html', '--jobs', '2'], root, POOLED);
    expect(one.code).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    expect(one.stdout).toContain('t-2.jsonl');
    expect(one.stdout).toContain('"grep"');
  });
});

describe('audit --format json with findings spilled to disk (AGENT_TRACE_AUDIT_SPILL_THRESHOLD)', () => {
  /** Five files with about a hundred findings between them. */
  function noisyTree(): string {
    const files: Record<string, string> = {};
    for (let f = 0; f < 5; f += 1) {
      const records: unknown[] = [];
      for (let c = 0; c < 30; c += 1) {
        records.push({ run_id: `r${f}`, kind: 'tool_call', call_id: `c${c}`, tool: 'grep', args: { q: c % 4 } });
        if (c % 3 !== 0) records.push({ run_id: `r${f}`, kind: 'tool_result', call_id: `c${c}`, tool: 'grep', ...(c % 5 === 0 ? { error: 'boom' } : {}) });
      }
      files[`shard-${f}.jsonl`] = jsonl(...records) + (f === 2 ? 'not json\n' : '');
    }
    return tempTree(files);
  }

  it('gives byte-identical JSON with and without spilling, with 1 and 2 workers, to stdout and to a file, and leaves no temporary file', () => {
    const root = noisyTree();
    const elsewhere = tempTree({});
    const tmp = mkdtempSync(join(elsewhere, 'tmp-'));
    const env = { TMPDIR: tmp };
    const reference = runBundle(['audit', '.', '--format', 'json', '--jobs', '1'], root, env);
    expect(reference.code).toBe(1);
    expect(JSON.parse(reference.stdout).findings.length).toBeGreaterThan(50);
    for (const jobs of ['1', '2']) {
      for (const threshold of ['', '1', '7']) {
        const spill = threshold === '' ? {} : { AGENT_TRACE_AUDIT_SPILL_THRESHOLD: threshold };
        const out = runBundle(['audit', '.', '--format', 'json', '--jobs', jobs], root, { ...env, ...spill, ...POOLED });
        expect(out.stderr).toBe('');
        expect(out.code).toBe(1);
        expect(out.stdout).toBe(reference.stdout);
        const file = join(elsewhere, `report-${jobs}-${threshold}.json`);
        const toFile = runBundle(['audit', 'shard-*.jsonl', '--format', 'json', '--jobs', jobs, '-o', file], root, { ...env, ...spill, ...POOLED });
        expect(toFile.code).toBe(1);
        expect(readFileSync(file, 'utf8')).toBe(reference.stdout);
        expect(readdirSync(tmp)).toEqual([]);
      }
    }
  });

  it('refuses a threshold that is not a whole number of at least 1', () => {
    const out = runBundle(['audit', '.', '--format', 'json'], noisyTree(), { AGENT_TRACE_AUDIT_SPILL_THRESHOLD: '0' });
    expect(out.code).toBe(2);
    expect(out.stderr.split('\n')[0]).toBe('usage: AGENT_TRACE_AUDIT_SPILL_THRESHOLD must be a whole number of at least 1, not "0"');
  });

  it('removes the spilled chunks when the audit is stopped by a signal', async () => {
    const root = tempTree({});
    const log = join(root, 'spans.jsonl');
    expect(spawnSync(process.execPath, ['bench/gen-span-log.mjs', log, '600', '250']).status).toBe(0);
    const tmp = mkdtempSync(join(tempTree({}), 'tmp-'));
    const child = spawn(process.execPath, [resolve('dist/cli.js'), 'audit', log, '--format', 'json', '--jobs', '1', '-o', join(root, 'out.json')], {
      env: { PATH: process.env['PATH'], TMPDIR: tmp, AGENT_TRACE_AUDIT_SPILL_THRESHOLD: '100' },
      stdio: 'ignore',
    });
    const ended = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
    const chunks = () => readdirSync(tmp, { recursive: true }).filter((name) => String(name).endsWith('.jsonl')).length;
    for (let waited = 0; chunks() === 0 && child.exitCode === null && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(chunks()).toBeGreaterThan(0);
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    expect(readdirSync(tmp)).toEqual([]);
  }, 60_000);
});
