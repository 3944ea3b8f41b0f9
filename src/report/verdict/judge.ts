import type { AuditConfig } from '../../audit/engine/audit-config.js';
import type { Finding } from '../../model/finding.js';
import { findingDelta } from './delta.js';
import type { Report } from '../schema.js';
import { suppressReport, unusedSuppressionNotes } from './suppress.js';
import { decideVerdict, type Gate, type Verdict } from './verdict.js';

export interface JudgeOptions {
  readonly config: Pick<AuditConfig, 'failOn' | 'gate' | 'suppress' | 'failOnUnread'>;
  /** The base branch's report (Action) or --baseline (CLI); null when there is none. */
  readonly baseline: Report | null;
  /** Why there is no baseline (our own words), when there is none. */
  readonly noBaseline?: string;
  /** The gate when the configuration names none: the Action's default is `new`, the CLI's `new` with --baseline, else `all`. */
  readonly defaultGate: Gate;
  readonly allowEmpty: boolean;
}

/** The verdict and our own lines under it: the gate's fallback, suppressions that matched nothing. */
export interface VerdictLines {
  readonly verdict: Verdict;
  readonly notes: readonly string[];
}

export interface Judged<F extends Iterable<Finding> = Finding[]> extends VerdictLines {
  /** The report as judged: suppressed findings taken out and listed apart. */
  readonly report: Report<F>;
}

/** Suppressions, then the comparison with the baseline, then the verdict: what every edge shows. */
export function judge(report: Report, options: JudgeOptions): Judged {
  const judged = suppressReport(report, options.config.suppress ?? []);
  return finishJudging(judged, options, options.baseline ? findingDelta(options.baseline, judged) : null);
}

/**
 * The verdict of a report whose findings are still in their store (no suppressions,
 * no baseline: nothing needs the findings themselves). See `judge` for the rest.
 */
export function judgeCounts<F extends Iterable<Finding>>(report: Report<F>, options: JudgeOptions): Judged<F> {
  return finishJudging(report, options, null);
}

function finishJudging<F extends Iterable<Finding>>(report: Report<F>, options: JudgeOptions, delta: ReturnType<typeof findingDelta> | null): Judged<F> {
  const verdict = decideVerdict({
    report,
    failOn: options.config.failOn,
    gate: options.config.gate ?? options.defaultGate,
    delta,
    ...(options.noBaseline ? { noBaseline: options.noBaseline } : {}),
    allowEmpty: options.allowEmpty,
    failOnUnread: options.config.failOnUnread === true,
  });
  const notes = [...(verdict.gateNote ? [verdict.gateNote] : []), ...unusedSuppressionNotes(report)];
  return { report: withVerdict(report, verdict), verdict, notes };
}

/** The report with the verdict after its summary (a verdict it carried, from a shard or a base branch, replaced). */
function withVerdict<F extends Iterable<Finding>>(report: Report<F>, verdict: Verdict): Report<F> {
  const { schemaVersion, tool, summary, verdict: _given, ...rest } = report;
  return { schemaVersion, tool, summary, verdict: { state: verdict.state, headline: verdict.headline, coverage: verdict.coverage }, ...rest } as Report<F>;
}
