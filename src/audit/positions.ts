import type { TraceRecord } from '../model/records.js';
import type { Run } from '../model/run.js';

const cache = new WeakMap<Run, ReadonlyMap<TraceRecord, number>>();

/**
 * Each record's position in its run (record order is time order in every parser;
 * lines are not, since a whole-document format puts many records on one line).
 * Memoized per run: the pairing-order rules share one index instead of each
 * building its own.
 */
export function recordPositions(run: Run): ReadonlyMap<TraceRecord, number> {
  const hit = cache.get(run);
  if (hit) return hit;
  const positions = new Map<TraceRecord, number>();
  for (let i = 0; i < run.records.length; i += 1) positions.set(run.records[i]!, i);
  cache.set(run, positions);
  return positions;
}
