import type { VerdictLines } from '../report/judge.js';
import { deltaLines, type Comparison, type MoreLinks } from '../report/comment/delta-lines.js';
import type { FileLinks } from '../report/comment/links.js';
import type { CommentInput } from '../report/comment/render.js';
import { verdictLines, type Verdict } from '../report/comment/verdict.js';
import type { Report } from '../report/schema.js';
import type { Baseline } from '../github/baseline.js';
import type { PullRequestRef, RunContext } from '../github/context.js';
import { plain, type HeadLines } from './report-lines.js';

/** New findings listed in the job summary (the comment lists NEW_SHOWN). */
const SUMMARY_NEW_SHOWN = 50;

export interface ViewArgs {
  readonly report: Report;
  readonly ctx: RunContext;
  readonly pr: PullRequestRef | undefined;
  readonly baseline: Baseline | undefined;
  /** Why no baseline was fetched (baseline: off, not a pull request) when `baseline` is undefined. */
  readonly noBaseline: string;
  /** The verdict (src/report/verdict.ts) and its notes. */
  readonly judged: VerdictLines;
  readonly head: HeadLines;
  readonly more: MoreLinks;
  /** The run whose artifacts the report's `artifacts` were read from. */
  readonly artifactsRunId: number;
}

/** What the comment and the summary compare with, and the links they make: built from the event and the baseline. */
export function commentView(args: ViewArgs): { verdict: Verdict; comparison: Comparison; files: FileLinks } {
  const { ctx, pr, baseline } = args;
  const headSha = pr?.headSha || ctx.workflowRun?.headSha || ctx.sha;
  // The verdict's delta: none when not compared, and none when nothing was audited (nothing is "fixed" then).
  const delta = args.judged.verdict.delta;
  const verdict: Verdict = { ...args.judged, headSha, baseSha: delta ? (pr?.baseSha ?? '') : '' };
  const reason = args.judged.verdict.state === 'nothing-audited' ? 'nothing was audited' : baseline && !baseline.found ? plain(baseline.reason) : args.noBaseline;
  const comparison: Comparison = delta ? { kind: 'compared', delta } : { kind: 'none', reason };
  const repo = `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}`;
  const blobBase = /^[0-9a-f]{40,64}$/.test(headSha) ? `${repo}/blob/${headSha}` : '';
  const artifacts = new Map<string, string>();
  for (const a of args.report.artifacts ?? []) artifacts.set(a.name, `${repo}/actions/runs/${args.artifactsRunId}/artifacts/${a.id}`);
  return { verdict, comparison, files: { blobBase, artifacts } };
}

/** The comment's input: the view, our own lines in their collapsed sections, the timelines and the marker. */
export function commentInput(args: ViewArgs, timelines: CommentInput['timelines'], tail: readonly string[]): CommentInput {
  const view = commentView(args);
  const base = view.comparison.kind === 'compared' ? args.head.base : [];
  return { ...view, more: args.more, details: args.head.details, metrics: args.head.metrics, base, timelines, tail };
}

/** The job summary's head lines: the verdict, every new finding up to 50, the fixed ones, then the run lines. */
export function summaryHead(args: ViewArgs): string[] {
  const view = commentView(args);
  const verdict = verdictLines(args.report, view.verdict).slice(2);
  return [...verdict, '', ...deltaLines(view.comparison, view.files, args.more, SUMMARY_NEW_SHOWN, false, args.report.findings), '', ...args.head.lines];
}
