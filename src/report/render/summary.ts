import { renderWithinBudget, SUMMARY_LIMIT, type Budgeted } from './budget.js';
import { deltaLines, type ComparedWith, type Comparison, type MoreLinks } from '../comment/delta-lines.js';
import type { FileLinks } from '../comment/links.js';
import { apartLines } from '../comment/apart-lines.js';
import { verdictLines, type Verdict } from '../comment/verdict.js';
import type { Report } from '../schema.js';
import { auditTitle } from '../verdict/title.js';

/** New findings listed one per line at the top of the job summary and the CLI's markdown (the comment lists fewer). */
export const SUMMARY_NEW_SHOWN = 50;

/** What the summary's lead is built from: the verdict, the comparison, and where files and the rest are. */
export interface SummaryView {
  readonly verdict: Verdict;
  readonly comparison: Comparison;
  readonly files: FileLinks;
  readonly more: MoreLinks;
}

/**
 * The comparison the verdict made: the new and fixed findings, or our own
 * reason why there is none (`notCompared`; a run that audited nothing is
 * never compared).
 */
export function comparisonOf(verdict: Verdict['verdict'], notCompared: string, against: ComparedWith = 'base-branch', baseRef = ''): Comparison {
  if (verdict.delta) return { kind: 'compared', delta: verdict.delta, against, ...(baseRef ? { baseRef } : {}) };
  return { kind: 'none', reason: verdict.state === 'nothing-audited' ? 'nothing was audited' : notCompared, against };
}

/**
 * The lines under the summary's title: how it was judged (counts, what was
 * read, commits, notes), each new finding up to `newShown` with its whole
 * message and the fixed ones (or, not compared, the most urgent findings),
 * then `runLines` (the Action's run, artifact, seal and catalog lines).
 */
export function summaryLead(report: Report, view: SummaryView, runLines: readonly string[] = [], newShown = SUMMARY_NEW_SHOWN): string[] {
  const verdict = verdictLines(report, view.verdict).slice(2);
  const delta = [...deltaLines(view.comparison, view.files, view.more, newShown, false, report.findings), ...apartLines(view.comparison, view.files, view.more, newShown)];
  return [...verdict, '', ...delta, ...(runLines.length > 0 ? ['', ...runLines] : [])];
}

export interface SummaryOptions {
  /** Characters at most (a job summary's 1 MiB by default). */
  readonly limit?: number;
  /** Our own lines after the new and fixed findings (see summaryLead). */
  readonly runLines?: readonly string[];
  /** Kept whole at the very end (the Action's timelines). */
  readonly tail?: readonly string[];
  /** Where everything is when the listed findings were cut (our own sentence). */
  readonly rest?: string;
}

/**
 * The job summary, and the CLI's `--format markdown`: the title with the
 * verdict, the lead (summaryLead), a rule table of the rules with findings
 * (rule, severity, count, new when compared, first location), the guidance
 * collapsed per rule, the findings collapsed, the suppressed findings, and the
 * tail, fitted into `limit` characters (renderWithinBudget).
 */
export function renderSummary(report: Report, view: SummaryView, options: SummaryOptions = {}): Budgeted {
  const added = view.comparison.kind === 'compared' ? new Set(view.comparison.delta.added.map((f) => f.fingerprint)) : undefined;
  return renderWithinBudget(report, options.limit ?? SUMMARY_LIMIT, {
    title: auditTitle(view.verdict.name ?? ''),
    headline: view.verdict.verdict.headline,
    lead: summaryLead(report, view, options.runLines ?? []),
    ...(added ? { added } : {}),
    ...(options.tail ? { tail: options.tail } : {}),
    ...(options.rest ? { rest: options.rest } : {}),
  });
}
