import type { Report } from './schema.js';

/**
 * Runs the report lists (`limits.max-runs`). A crafted trace makes runs as
 * cheaply as findings (one 30-byte line is a run), so past this many the
 * report lists the first runs in report order and counts the rest in
 * `omittedRuns`; the summary still counts every run, call and result.
 */
export const DEFAULT_MAX_RUNS = 10_000;

type RunEntry = Report['runs'][number];
export type OmittedRuns = NonNullable<Report['omittedRuns']>;

/** The first `max` runs, and the count of the rest (null when none is left out). */
export function capRuns(runs: readonly RunEntry[], max: number, alreadyOmitted: OmittedRuns | null = null): { runs: RunEntry[]; omittedRuns: OmittedRuns | null } {
  if (runs.length <= max && alreadyOmitted === null) return { runs: [...runs], omittedRuns: null };
  const omitted = { runs: alreadyOmitted?.runs ?? 0, toolCalls: alreadyOmitted?.toolCalls ?? 0, toolResults: alreadyOmitted?.toolResults ?? 0 };
  for (let i = max; i < runs.length; i += 1) {
    omitted.runs += 1;
    omitted.toolCalls += runs[i]!.toolCalls;
    omitted.toolResults += runs[i]!.toolResults;
  }
  return { runs: runs.slice(0, max), omittedRuns: omitted.runs === 0 ? null : omitted };
}

/** The `omittedRuns` key when runs were left out, else nothing (the key is absent). */
export function omittedRunsField(omitted: OmittedRuns | null): { omittedRuns?: OmittedRuns } {
  return omitted === null ? {} : { omittedRuns: omitted };
}

/**
 * The one sentence every renderer gives when the report does not list every run
 * (null when it does): how many are listed, how many are only counted, and why.
 */
export function omittedRunsNote(report: Pick<Report, 'runs' | 'omittedRuns' | 'catalogs' | 'omittedCatalogs'>): string | null {
  const omitted = report.omittedRuns;
  const catalogs = report.omittedCatalogs ?? 0;
  const parts: string[] = [];
  if (omitted && omitted.runs > 0) {
    parts.push(`The report lists ${report.runs.length} of ${report.runs.length + omitted.runs} run(s); ${omitted.runs} more (${omitted.toolCalls} tool call(s), ${omitted.toolResults} result(s)) are counted in the summary, not listed (limits.max-runs).`);
  }
  if (catalogs > 0) {
    parts.push(`It lists ${report.catalogs?.length ?? 0} of ${(report.catalogs?.length ?? 0) + catalogs} distinct tool catalog(s) (limits.max-runs), so its catalogs are not compared with another branch's.`);
  }
  return parts.length === 0 ? null : parts.join(' ');
}
