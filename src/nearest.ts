/**
 * The candidate closest to `given` by edit distance (insertions, deletions,
 * substitutions and swaps of two neighbours), when it is close enough to be a
 * typo (at most a third of the longer word), or that `given` begins. Ties go to the earlier candidate, so the answer is deterministic.
 */
export function nearest(given: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate.startsWith(given) && given.length >= 2) return candidate;
    const distance = editDistance(given, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === null) return null;
  const limit = Math.max(1, Math.floor(Math.max(given.length, best.length) / 3));
  return bestDistance <= limit ? best : null;
}

/** Optimal string alignment distance; inputs are flag names and words, so short. */
export function editDistance(a: string, b: string): number {
  const x = [...a].slice(0, 64);
  const y = [...b].slice(0, 64);
  const rows: number[][] = [];
  for (let i = 0; i <= x.length; i += 1) {
    rows.push([i]);
    for (let j = 1; j <= y.length; j += 1) rows[i]![j] = i === 0 ? j : 0;
  }
  for (let i = 1; i <= x.length; i += 1) {
    for (let j = 1; j <= y.length; j += 1) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[x.length]![y.length]!;
}
