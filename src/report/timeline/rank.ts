import type { Finding, Severity } from '../../model/finding.js';
import type { Report } from '../schema.js';
import type { RunTimeline } from '../../model/timeline.js';

export interface RankedRun {
  readonly timeline: RunTimeline;
  /** Position of the run in the timelines as given. */
  readonly index: number;
  readonly counts: Readonly<Record<Severity, number>>;
  /** Findings of the run that a timeline shows (TIME_SHAPED_RULES). */
  readonly timeShaped: number;
}

/** Rules whose findings are about time: a timeline shows them (an open bar, a late one, a storm, llm spans over a call). */
export const TIME_SHAPED_RULES: ReadonlySet<string> = new Set(['orphan-call', 'budget-miss', 'late-result', 'retry-storm', 'continued-while-outstanding']);

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
 * Runs ordered for drawing: the most time-shaped findings first (a secret
 * has no picture), then runs with findings and bars before the rest, then
 * most errors, warnings, notes and calls; ties keep their order.
 */
export function rankRuns(report: Report, timelines: readonly RunTimeline[]): RankedRun[] {
  const counts = timelines.map(() => ({ error: 0, warning: 0, note: 0 }));
  const shaped = timelines.map(() => 0);
  const owner = runIndexOf(report.findings, timelines);
  report.findings.forEach((f, i) => {
    const run = owner[i]!;
    if (run < 0) return;
    counts[run]![f.severity] += 1;
    if (TIME_SHAPED_RULES.has(f.ruleId)) shaped[run]! += 1;
  });
  const drawable = (r: RankedRun) => (r.counts.error + r.counts.warning + r.counts.note > 0 && r.timeline.bars.length > 0 ? 1 : 0);
  return timelines
    .map((timeline, index) => ({ timeline, index, counts: counts[index]!, timeShaped: shaped[index]! }))
    .sort(
      (a, b) =>
        b.timeShaped - a.timeShaped ||
        drawable(b) - drawable(a) ||
        b.counts.error - a.counts.error ||
        b.counts.warning - a.counts.warning ||
        b.counts.note - a.counts.note ||
        b.timeline.bars.length - a.timeline.bars.length ||
        a.index - b.index,
    );
}
