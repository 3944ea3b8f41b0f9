import type { AuditConfig } from '../../audit/engine/audit-config.js';
import type { Finding } from '../../model/finding.js';
import { carriedComparison, compareWithBases, type FindingDelta } from './delta.js';
import type { Report } from '../schema.js';
import { suppressReport, unusedSuppressionNotes } from './suppress.js';
import { decideVerdict, type Gate, type Verdict } from './verdict.js';

/** A base report and where it came from: the JSON report's `comparison.baselines[]`. */
export interface BaseReport {
  readonly report: Report;
  /** Our own words: `run 123 on main`, or the --baseline path as given. */
  readonly source: string;
  /** The workflow run it was uploaded by (the Action), else null. */
  readonly runId: number | null;
  /** When that run was (ISO 8601, the Action), else null. */
  readonly time: string | null;
}

export interface JudgeOptions {
  readonly config: Pick<AuditConfig, 'failOn' | 'gate' | 'suppress' | 'failOnUnread'>;
  /** The base reports, newest first (the Action's last runs on the base branch, the CLI's --baseline), one report, or null when there is none. */
  readonly baseline: Report | readonly BaseReport[] | null;
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
  /** The report as judged: suppressed findings taken out and listed apart, each finding's `baselineState`, the `verdict` and the `comparison`. */
  readonly report: Report<F>;
}

/** The base reports given, as a list (one report alone has no source). */
export function baseReports(baseline: JudgeOptions['baseline']): readonly BaseReport[] {
  if (baseline === null) return [];
  if (Array.isArray(baseline)) return baseline as readonly BaseReport[];
  return [{ report: baseline as Report, source: 'baseline', runId: null, time: null }];
}

/**
 * Suppressions, then the comparison with the base reports, then the verdict: what every edge
 * shows. Without base reports, the comparison a merged report carries (`merge` of compared shards).
 */
export function judge(report: Report, options: JudgeOptions): Judged {
  const judged = suppressReport(report, options.config.suppress ?? []);
  const bases = baseReports(options.baseline);
  const compared = bases.length > 0 ? compareWithBases(bases.map((b) => b.report), judged) : carriedComparison(judged);
  const lines = finishJudging(judged, options, compared?.delta ?? null);
  // A run that audited nothing is not compared (decideVerdict): its findings get no baselineState.
  if (!compared || lines.verdict.delta === null) return { ...lines, report: withVerdict({ ...judged, findings: judged.findings.map(withoutState) }, lines.verdict) };
  const used = bases.length > 0 ? bases.map((b) => ({ source: b.source, runId: b.runId, version: b.report.tool.version, time: b.time })) : judged.comparison!.baselines;
  const comparison = comparisonField(used, compared.delta, compared.findings);
  return { ...lines, report: withVerdict({ ...judged, findings: compared.findings }, lines.verdict, comparison) };
}

/** A finding without the state an earlier comparison gave it (a report judged again, not compared). */
function withoutState(f: Finding): Finding {
  if (f.baselineState === undefined && f.baselineSeen === undefined) return f;
  const { baselineState: _state, baselineSeen: _seen, ...plain } = f;
  return plain;
}

/**
 * The verdict of a report whose findings are still in their store (no suppressions,
 * no baseline: nothing needs the findings themselves). See `judge` for the rest.
 */
export function judgeCounts<F extends Iterable<Finding>>(report: Report<F>, options: JudgeOptions): Judged<F> {
  const lines = finishJudging(report, options, null);
  return { ...lines, report: withVerdict(report, lines.verdict) };
}

function finishJudging<F extends Iterable<Finding>>(report: Report<F>, options: JudgeOptions, delta: FindingDelta | null): VerdictLines {
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
  return { verdict, notes };
}

function comparisonField(used: NonNullable<Report['comparison']>['baselines'], delta: FindingDelta, findings: readonly Finding[]): NonNullable<Report['comparison']> {
  const unchanged = findings.filter((f) => f.baselineState === 'unchanged').length;
  return {
    baselines: used,
    counts: { new: delta.added.length, unchanged, flaky: delta.flaky.length, notCompared: delta.notCompared.length, fixed: delta.fixed.length },
    fixed: [...delta.fixed],
  };
}

/**
 * The report with its `verdict` (and `comparison`, when compared) right after `summary`,
 * so the JSON report (written in pieces, findings last) states them before its findings.
 * A verdict or comparison the report carried (a stored or merged report's) is replaced.
 */
function withVerdict<F extends Iterable<Finding>>(report: Report<F>, verdict: Verdict, comparison?: Report['comparison']): Report<F> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(report)) {
    if (key === 'verdict' || key === 'comparison') continue;
    out[key] = value;
    if (key !== 'summary') continue;
    out['verdict'] = { state: verdict.state, headline: verdict.headline, failed: verdict.failed, gate: verdict.gate, failOn: verdict.failOn, coverage: verdict.coverage };
    if (comparison) out['comparison'] = comparison;
  }
  return out as Report<F>;
}
