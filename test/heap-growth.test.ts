import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { DEFAULT_HEAP_GROWTH_PERCENT, WORKER_YOUNG_GENERATION_MB, heapGrowthFor, workerResourceLimits } from '../src/heap-growth.js';
import { tempDir } from './helpers.js';

describe('heap growth (the old generation may grow 50% past a full collection)', () => {
  it('sets the default, the environment variable, or leaves V8 alone when Node was given the flag or the variable is 0', () => {
    expect(DEFAULT_HEAP_GROWTH_PERCENT).toBe(50);
    expect(heapGrowthFor({}, [])).toEqual({ set: 50 });
    expect(heapGrowthFor({ AGENT_TRACE_AUDIT_HEAP_GROWTH: '' }, [])).toEqual({ set: 50 });
    expect(heapGrowthFor({ AGENT_TRACE_AUDIT_HEAP_GROWTH: '100' }, [])).toEqual({ set: 100 });
    expect(heapGrowthFor({ AGENT_TRACE_AUDIT_HEAP_GROWTH: '0' }, ['--heap-growing-percent=20'])).toEqual({ left: 'env-zero' });
    expect(heapGrowthFor({}, ['--heap-growing-percent=20'])).toEqual({ left: 'node-option' });
    expect(heapGrowthFor({}, ['--heap_growing_percent', '20'])).toEqual({ left: 'node-option' });
    expect(heapGrowthFor({ NODE_OPTIONS: '--max-old-space-size=512 --heap-growing-percent=30' }, [])).toEqual({ left: 'node-option' });
    expect(heapGrowthFor({ NODE_OPTIONS: '--max-old-space-size=512' }, [])).toEqual({ set: 50 });
    for (const bad of ['-1', '1.5', 'fifty', '1001', ' 50']) {
      expect(() => heapGrowthFor({ AGENT_TRACE_AUDIT_HEAP_GROWTH: bad }, [])).toThrow(/AGENT_TRACE_AUDIT_HEAP_GROWTH must be a whole number from 0 to 1000/);
    }
  });

  it('takes effect in dist/cli.js: V8 sets each old-generation limit at 1.5× what a full collection kept', () => {
    const root = tempDir();
    const log = join(root, 'log.jsonl');
    expect(spawnSync(process.execPath, ['bench/gen-span-log.mjs', log, '150', '250']).status).toBe(0);
    // --trace-gc-verbose prints each new old-generation limit with the factor used, e.g. "Limit: old size: 19287 KB, new limit: 45039 KB (1.5)".
    const factors = (env: NodeJS.ProcessEnv) => {
      const run = spawnSync(process.execPath, ['--trace-gc-verbose', resolve('dist/cli.js'), 'audit', log, '--format', 'json', '--fail-on', 'never', '-o', join(root, 'out.json')], {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'], ...env },
        maxBuffer: 256 * 1024 * 1024,
      });
      expect(run.status).toBe(0);
      return [...run.stdout.matchAll(/\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(([\d.]+)\)/g)].map((m) => m[1]);
    };
    const tuned = factors({});
    expect(tuned.length).toBeGreaterThan(0);
    expect(new Set(tuned)).toEqual(new Set(['1.5']));
    expect(new Set(factors({ AGENT_TRACE_AUDIT_HEAP_GROWTH: '100' }))).toEqual(new Set(['2.0']));
    // Left to V8, the factor is its own (up to 4.0 when collections are fast).
    expect(factors({ AGENT_TRACE_AUDIT_HEAP_GROWTH: '0' })).not.toContain('1.5');
  }, 60_000);

  it('gives an audit worker a smaller young generation than V8 gives a thread by itself', async () => {
    // A worker keeps up to 100,000 young objects alive and reports the largest new space it had.
    const code = `
      const { getHeapSpaceStatistics } = require('node:v8');
      const { parentPort } = require('node:worker_threads');
      let max = 0;
      const keep = [];
      for (let i = 0; i < 400000; i += 1) {
        keep.push({ i, s: 'x' + i });
        if (keep.length > 100000) keep.splice(0, 50000);
        if (i % 1000 === 0) max = Math.max(max, getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
      }
      parentPort.postMessage(max);`;
    const newSpace = async (options: ConstructorParameters<typeof Worker>[1]) => {
      const worker = new Worker(code, { eval: true, ...options });
      try {
        return (await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject))) as number;
      } finally {
        await worker.terminate();
      }
    };
    expect(workerResourceLimits()).toEqual({ maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB });
    const limited = await newSpace({ resourceLimits: workerResourceLimits() });
    const own = await newSpace({});
    expect(limited).toBeLessThanOrEqual(WORKER_YOUNG_GENERATION_MB * 1024 * 1024);
    expect(own).toBeGreaterThan(limited);
  }, 60_000);
});
