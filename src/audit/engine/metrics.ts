/**
 * Metrics are additive counters: a number, or an object of numbers (a histogram
 * keyed by bucket). Adding is what lets workers and shard reports be joined.
 */
export type MetricValue = number | Record<string, number>;

export function addMetrics(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const key of Object.keys(from)) {
    into[key] = addMetric(Object.prototype.hasOwnProperty.call(into, key) ? into[key] : undefined, from[key]);
  }
}

function addMetric(a: unknown, b: unknown): unknown {
  if (a === undefined) return typeof b === 'object' && b !== null ? { ...b } : b;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (isCounts(a) && isCounts(b)) {
    const out: Record<string, number> = { ...a };
    for (const key of Object.keys(b)) out[key] = (out[key] ?? 0) + b[key]!;
    return out;
  }
  throw new Error(`metrics must be additive counters: cannot add ${JSON.stringify(a)} and ${JSON.stringify(b)}`);
}

function isCounts(value: unknown): value is Record<string, number> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'number');
}
