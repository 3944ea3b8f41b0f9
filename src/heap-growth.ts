import { setFlagsFromString } from 'node:v8';
import { ConfigurationError } from './errors.js';

/**
 * How far V8 lets the old generation grow past what the last full collection
 * kept, in percent. V8 picks up to 300% (4×) by itself when collections are fast,
 * and an audit's live heap is small (its open runs and outstanding calls), so most
 * of its peak RSS is garbage waiting for a collection that a cheap full GC would
 * free. 50% keeps the peak RSS of the 211 MiB benchmark log under 150 MiB for a
 * few percent of wall time (README, Performance).
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

const ENV = 'AGENT_TRACE_AUDIT_HEAP_GROWTH';
const FLAG = /--heap[-_]growing[-_]percent\b/;

export type HeapGrowth =
  | { readonly set: number }
  | { readonly left: 'env-zero' | 'node-option' };

/**
 * What the process should do: set the growth (`AGENT_TRACE_AUDIT_HEAP_GROWTH`,
 * else the default), or leave V8's own choice when that variable is 0 or when
 * whoever started Node already passed `--heap-growing-percent` (in NODE_OPTIONS or
 * on the command line). Throws on a value that is not a whole number from 0 to 1000.
 */
export function heapGrowthFor(env: NodeJS.ProcessEnv, execArgv: readonly string[]): HeapGrowth {
  const raw = env[ENV];
  let percent = DEFAULT_HEAP_GROWTH_PERCENT;
  if (raw !== undefined && raw !== '') {
    percent = Number(raw);
    if (!/^[0-9]+$/.test(raw) || percent > 1000) throw new ConfigurationError(`${ENV} must be a whole number from 0 to 1000 (percent; 0 leaves V8's own choice), not ${JSON.stringify(raw)}`);
    if (percent === 0) return { left: 'env-zero' };
  }
  if (execArgv.some((arg) => FLAG.test(arg)) || FLAG.test(env['NODE_OPTIONS'] ?? '')) return { left: 'node-option' };
  return { set: percent };
}

/**
 * Applies `heapGrowthFor` to this process (worker threads share it). V8 reads the
 * flag at every full collection, so setting it after start takes effect from the
 * next one; Node keeps V8's flags writable after start for this (v8.setFlagsFromString).
 */
export function limitHeapGrowth(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): HeapGrowth {
  const growth = heapGrowthFor(env, execArgv);
  if ('set' in growth) setFlagsFromString(`--heap-growing-percent=${growth.set}`);
  return growth;
}

/**
 * The young generation of each audit worker thread (routed or pooled), in MiB. V8
 * gives a worker the young generation it gives the main thread (a 32 MiB new space
 * on 64 bits, plus its share of the new large-object space), and the router and each
 * worker hold their own: most of what the routed default held past 150 MiB + 100 MiB
 * per extra worker. 16 halves a worker's new space; on the 211 MiB benchmark log at
 * two workers it took about 40 MiB off the peak RSS for no CPU time the measurement
 * could tell from its noise (README, Performance).
 */
export const WORKER_YOUNG_GENERATION_MB = 16;

/** The resource limits an audit worker starts with. */
export function workerResourceLimits(): { readonly maxYoungGenerationSizeMb: number } {
  return { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB };
}
