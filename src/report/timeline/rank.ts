import type { Finding, Severity } from '../../model/finding.js';
import type { Report } from '../schema.js';
import type { RunTimeline } from './types.js';

export interface RankedRun {
  readonly timeline: RunTimeline;
  /** Position of the run in the timelines as given. */
  readonly index: number;
  readonly counts: Readonly<Record<Severity, number>>;
}

/** The key that joins a finding to its run: file and run id, both as the report spells them. */
export function runKey(file: string, runId: string | null): string {
  return `${file.length}:${file}:${runId ?? '\u0000'}`;
}

/** For each finding, the index of its run in `timelines`, or -1 (file-level findings, cross-run findings). */
export function runIndexOf(findings: readonly Finding[], timelines: readonly RunTimeline[]): Int32Array {
  const byKey = new Map<string, number>();
  timelines.forEach((t, i) => {
    const key = runKey(t.file, t.runId);
    if (!byKey.has(key)) byKey.set(key, i);
  });
  const out = new Int32Array(findings.length);
  findings.forEach((f, i) => {
    out[i] = byKey.get(runKey(f.file, f.runId)) ?? -1;
  });
  return out;
}

/**
 * Runs ordered worst first: most errors, then warnings, then notes, then the
 * most calls; ties keep their order. Runs with no finding come last.
 */
export function rankRuns(report: Report, timelines: readonly RunTimeline[]): RankedRun[] {
  const counts = timelines.map(() => ({ error: 0, warning: 0, note: 0 }));
  const owner = runIndexOf(report.findings, timelines);
  report.findings.forEach((f, i) => {
    const run = owner[i]!;
    if (run >= 0) counts[run]![f.severity] += 1;
  });
  return timelines
    .map((timeline, index) => ({ timeline, index, counts: counts[index]! }))
    .sort(
      (a, b) =>
        b.counts.error - a.counts.error ||
        b.counts.warning - a.counts.warning ||
        b.counts.note - a.counts.note ||
        b.timeline.bars.length - a.timeline.bars.length ||
        a.index - b.index,
    );
}
