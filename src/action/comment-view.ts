import { createHash } from 'node:crypto';
import type { VerdictLines } from '../report/verdict/judge.js';
import type { MoreLinks } from '../report/comment/delta-lines.js';
import type { CommentInput } from '../report/comment/render.js';
import type { Verdict } from '../report/comment/verdict.js';
import type { Report } from '../report/schema.js';
import { comparisonOf, type SummaryView } from '../report/render/summary.js';
import type { Baseline } from '../github/baseline.js';
import type { PullRequestRef, RunContext } from '../github/context.js';
import { plain, type HeadLines } from './report-lines.js';

export interface ViewArgs {
  readonly report: Report;
  readonly ctx: RunContext;
  readonly pr: PullRequestRef | undefined;
  readonly baseline: Baseline | undefined;
  /** Why no baseline was fetched (baseline: off, not a pull request) when `baseline` is undefined. */
  readonly noBaseline: string;
  /** The verdict (src/report/verdict/verdict.ts) and its notes. */
  readonly judged: VerdictLines;
  readonly head: HeadLines;
  readonly more: MoreLinks;
  /** The `name` input: in the title. */
  readonly name: string;
  /** The files committed at the head commit (the workspace's git index; empty without a checkout): the only ones linked. */
  readonly tracked: ReadonlySet<string>;
}

/** What the comment and the summary compare with, and the links they make: built from the event and the baseline. */
export function commentView(args: ViewArgs): Omit<SummaryView, 'more'> {
  const { ctx, pr, baseline } = args;
  const headSha = pr?.headSha || ctx.workflowRun?.headSha || ctx.sha;
  // The verdict's delta: none when not compared, and none when nothing was audited (nothing is "fixed" then).
  const delta = args.judged.verdict.delta;
  const verdict: Verdict = { ...args.judged, headSha, baseSha: delta ? (pr?.baseSha ?? '') : '', name: args.name };
  const comparison = comparisonOf(args.judged.verdict, baseline && !baseline.found ? plain(baseline.reason) : args.noBaseline, 'base-branch', pr?.baseRef ?? '');
  const repo = `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}`;
  const blobBase = /^[0-9a-f]{40,64}$/.test(headSha) ? `${repo}/blob/${headSha}` : '';
  return { verdict, comparison, files: { blobBase, tracked: args.tracked } };
}

/** The comment's input: the view, our own lines in their collapsed sections, the timelines and the marker. */
export function commentInput(args: ViewArgs, timelines: CommentInput['timelines'], tail: readonly string[]): CommentInput {
  const view = commentView(args);
  const base = view.comparison.kind === 'compared' ? args.head.base : [];
  return { ...view, more: args.more, details: args.head.details, metrics: args.head.metrics, base, timelines, tail };
}

/**
 * The hidden line that says what a comment shows, for `comment-mode:
 * changes`: a digest of the verdict and the fingerprints of the new and the
 * fixed findings. A comment that already holds it is not edited.
 */
export function commentState(args: ViewArgs): string {
  const { comparison } = commentView(args);
  const fingerprints = (list: readonly { fingerprint: string }[]) => list.map((f) => f.fingerprint).sort();
  const sets = comparison.kind === 'compared' ? { added: fingerprints(comparison.delta.added), fixed: fingerprints(comparison.delta.fixed) } : { findings: fingerprints(args.report.findings) };
  const digest = createHash('sha256').update(JSON.stringify({ verdict: args.judged.verdict.headline, failed: args.judged.verdict.failed, ...sets })).digest('hex').slice(0, 32);
  return `<!-- agent-trace-audit:state ${digest} -->`;
}

/** What the job summary (and the check run's summary) is built from: the comment's view and where the rest is. */
export function summaryView(args: ViewArgs): SummaryView {
  return { ...commentView(args), more: args.more };
}

