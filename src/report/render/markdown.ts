import { NO_FILE_LINKS } from '../comment/links.js';
import type { VerdictLines } from '../verdict/judge.js';
import type { Report } from '../schema.js';
import { comparisonOf, renderSummary } from './summary.js';

export interface MarkdownOptions {
  /** Why nothing was compared, when the verdict has no comparison (our own words). */
  readonly notCompared?: string;
  /** Characters at most (a job summary's 1 MiB by default: the file can be appended to $GITHUB_STEP_SUMMARY). */
  readonly limit?: number;
}

/**
 * The CLI's `--format markdown` (audit, merge): the job summary's renderer
 * (src/report/render/summary.ts) with no run lines and no links. The verdict, then
 * with a baseline the new findings (each with its whole message) and the fixed
 * ones, without one the most urgent findings; the rule table of the rules with
 * findings, the guidance collapsed per rule, every finding collapsed, the
 * suppressed ones. Trace text only in code spans.
 */
export function renderMarkdown(report: Report, judged: VerdictLines, options: MarkdownOptions = {}): string {
  const view = {
    // No commits: the CLI does not know which one the traces belong to.
    verdict: { ...judged, headSha: '', baseSha: '', edge: 'cli' as const },
    comparison: comparisonOf(judged.verdict, options.notCompared ?? 'no --baseline report given', 'baseline'),
    // Files are named, never linked: there is no repository to link to.
    files: NO_FILE_LINKS,
    more: { runUrl: '', artifactUrl: '', here: 'the Findings list below' },
  };
  // This report may be the only one written (`--format markdown -o`): name how to get the rest, not a file that may not exist.
  return renderSummary(report, view, { ...(options.limit ? { limit: options.limit } : {}), rest: '`--format json` (or `text`) lists them all.' }).markdown;
}
