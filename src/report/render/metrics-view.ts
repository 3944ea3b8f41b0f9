/**
 * Figures derived from the report's additive metrics, for renderers: the share of
 * catch-all error codes and the distribution of recovery attempts. Computed here,
 * not stored, so that merged and parallel reports derive the same figures.
 */
export interface ErrorShare {
  readonly errors: number;
  readonly unmapped: number;
  readonly uncoded: number;
  /** unmapped / errors, rounded to 4 decimals; null when no result failed. */
  readonly share: number | null;
}

export interface RecoveryDistribution {
  /** Episodes that recovered. */
  readonly count: number;
  readonly unrecovered: number;
  /** Nearest-rank percentiles (observed values), null when nothing recovered. */
  readonly median: number | null;
  readonly p90: number | null;
  readonly max: number | null;
}

const num = (metrics: Record<string, unknown>, key: string) => (typeof metrics[key] === 'number' ? (metrics[key] as number) : 0);

export function errorShare(metrics: Record<string, unknown>): ErrorShare {
  const errors = num(metrics, 'unmapped-error-share.errors');
  const unmapped = num(metrics, 'unmapped-error-share.unmapped');
  return { errors, unmapped, uncoded: num(metrics, 'unmapped-error-share.uncoded'), share: errors === 0 ? null : Math.round((unmapped / errors) * 10_000) / 10_000 };
}

export function recoveryDistribution(metrics: Record<string, unknown>): RecoveryDistribution {
  const histogram = metrics['slow-recovery.attempts'];
  const values: number[] = [];
  if (histogram !== null && typeof histogram === 'object') {
    for (const [bucket, count] of Object.entries(histogram as Record<string, number>)) for (let i = 0; i < count; i += 1) values.push(Number(bucket));
  }
  values.sort((a, b) => a - b);
  const rank = (p: number) => (values.length === 0 ? null : values[Math.max(0, Math.ceil(p * values.length) - 1)]!);
  return { count: values.length, unrecovered: num(metrics, 'slow-recovery.unrecovered'), median: rank(0.5), p90: rank(0.9), max: values.length === 0 ? null : values[values.length - 1]! };
}

/**
 * The derived figures as sentences for the job summary and the comment (our
 * own text and numbers only); none when the audit saw no failed result and no
 * recovery episode.
 */
export function metricsLines(metrics: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const share = errorShare(metrics);
  if (share.share !== null) {
    const percent = `${Math.round(share.share * 1000) / 10}%`;
    lines.push(`Unmapped error share: **${percent}** of ${share.errors} failed result(s) carry a catch-all code (${share.uncoded} carry no code).`);
  }
  const recovery = recoveryDistribution(metrics);
  if (recovery.count > 0) {
    const never = recovery.unrecovered > 0 ? `; ${recovery.unrecovered} never recovered` : '';
    lines.push(`Recovery attempts after an error (slow-recovery): median ${recovery.median}, p90 ${recovery.p90}, max ${recovery.max} over ${recovery.count} recovered episode(s)${never}.`);
  } else if (recovery.unrecovered > 0) {
    lines.push(`Recovery attempts after an error (slow-recovery): no episode recovered; ${recovery.unrecovered} never recovered.`);
  }
  return lines;
}
