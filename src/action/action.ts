import * as core from '@actions/core';
import { join } from 'node:path';
import { SEAL_MANIFEST } from '../seal/manifest.js';
import { judge } from '../report/verdict/judge.js';
import type { Verdict } from '../report/verdict/verdict.js';
import type { Logger } from '../logger.js';
import type { Report } from '../report/schema.js';
import { renderComment } from '../report/comment/render.js';
import { renderSummary } from '../report/render/summary.js';
import { mermaidSection } from '../report/render/mermaid.js';
import { annotate, type AnnotationSink } from '../github/annotations.js';
import { artifactNameFor, commentMarker, shardId } from '../github/artifacts/artifact-name.js';
import { firstLine, uploadFolder } from '../github/artifacts/artifact.js';
import { fetchBaseline, type Baseline } from '../github/baseline.js';
import { checkRunStep } from './check-run-step.js';
import { upsertComment } from '../github/comment.js';
import { commentInput, commentState, summaryView, type ViewArgs } from './comment-view.js';
import { runUrl, type PullRequestRef, type RunContext } from '../github/context.js';
import type { ActionInputs } from '../github/inputs.js';
import { restClient } from '../github/octokit.js';
import { findPullRequest } from '../github/artifacts/remote-reports.js';
import { headLines, plain } from './report-lines.js';
import { writeReportFiles } from './report-files.js';
import { sourceReport, type Sourced } from './report-source.js';
import { sealLinks, sealStep, type SealFile } from './seal-step.js';
import { trackedFiles } from './tracked-files.js';

export { HTML_REPORT_FILE } from './report-files.js';
/** The share of the summary's size budget the Mermaid timelines may take. */
const MERMAID_SUMMARY_BUDGET = 60_000;
/** The check run's summary draws its timelines within this many characters (its whole summary may hold 65,535). */
const MERMAID_CHECK_RUN_BUDGET = 12_000;

export interface ActionDeps {
  readonly logger: Logger;
  readonly setOutput: (name: string, value: string | number | boolean) => void;
  readonly annotations?: AnnotationSink;
  /** Seals one trace file; when absent, the artifact carries the reports only. */
  readonly sealFile?: SealFile;
  /** The running bundle, to start audit workers from (null: audit in this thread). */
  readonly workerEntry?: URL | null;
  /** Threads only from this much input in all (default POOL_MIN_BYTES: src/audit/engine/pool-plan.ts). */
  readonly poolMinBytes?: number;
}

/**
 * One Action run: source the report (audit / merge / publish), write the
 * JSON report, SARIF, seal + upload, summary, comment and annotations, set
 * the outputs, and only then say whether the job fails. Reporting problems
 * are warnings. Returns the failure message, or undefined.
 */
export async function runAction(inputs: ActionInputs, ctx: RunContext, deps: ActionDeps): Promise<string | undefined> {
  const { logger, setOutput } = deps;
  const read = await sourceReport(inputs, ctx, logger, { entry: deps.workerEntry ?? null, ...(deps.poolMinBytes !== undefined ? { poolMinBytes: deps.poolMinBytes } : {}) });
  const { config } = read;
  if (read.empty) logger.warning(inputs.mode === 'audit' ? `no trace files matched ${[...inputs.traces, ...inputs.artifacts.map((a) => `artifact ${a}`)].join(', ')}` : `no report artifacts named ${inputs.artifactName}* were found`);

  const artifactName = artifactNameFor(inputs.artifactName, inputs.mode === 'audit' ? inputs.shard : '', inputs.name);
  const pr = await pullRequestFor(inputs, ctx, logger);
  const baseline = await baselineFor(inputs, ctx, pr, artifactName);
  const noBaseline = !pr ? 'this run is not for a pull request' : !baseline ? 'the baseline input is off' : baseline.found ? '' : plain(baseline.reason);
  // The one verdict (src/report/verdict/verdict.ts): suppressions out, new and fixed against the base, gate, coverage.
  const judged = judge(read.report, { config, baseline: baseline?.found ? baseline.reports : null, noBaseline, defaultGate: 'new', allowEmpty: !inputs.failOnEmpty });
  const sourced: Sourced = { ...read, report: judged.report };
  const { report } = sourced;
  const { verdict } = judged;
  for (const note of judged.notes) logger.info(note);

  const { outDir, reportPath } = await writeReportFiles(inputs, ctx, sourced, logger, setOutput);
  const sealOn = inputs.mode === 'audit' && inputs.seal && deps.sealFile !== undefined && sourced.inputs.length > 0;
  const { sealDigest, sealRedacted } = sealOn ? await sealStep(sourced.inputs, outDir, deps.sealFile!, logger, { redact: inputs.sealRedact ?? config.sealRedact ?? true, report }) : { sealDigest: '', sealRedacted: undefined };
  setOutput('seal-manifest', sealDigest ? join(outDir, SEAL_MANIFEST) : '');
  const uploaded = inputs.mode === 'audit' && inputs.upload ? await uploadFolder(artifactName, outDir, inputs.retentionDays, runUrl(ctx), logger) : undefined;

  const failed = verdict.failed;
  // Only files committed in the workspace's checkout are linked and annotated (git ls-files, once; no checkout, no links).
  const tracked = await trackedFiles(ctx.workspace);
  const links = { runUrl: runUrl(ctx), artifactUrl: uploaded?.url ?? '', artifactName, sealDigest, shard: inputs.mode === 'audit' ? shardId(inputs.shard) : '', ...sealLinks(ctx.runId, uploaded, sealRedacted) };
  const head = headLines(report, links, baseline);
  const { diff } = head;
  const view: ViewArgs = {
    report,
    ctx,
    pr,
    baseline,
    noBaseline: noBaseline || 'no baseline',
    judged,
    head,
    more: { runUrl: inputs.mode === 'publish' && ctx.workflowRun ? runUrl({ ...ctx, runId: ctx.workflowRun.id }) : runUrl(ctx), artifactUrl: uploaded?.url ?? '' },
    tracked,
    name: inputs.name,
  };

  // The job summary and the check run's summary: one renderer (src/report/render/summary.ts), the same lines.
  if (inputs.summary) await writeJobSummary(sourced, view, logger);
  const commentUrl = await commentStep(inputs, ctx, view, sourced, logger);

  const checkPictures = mermaidSection(report, sourced.timelines ?? [], MERMAID_CHECK_RUN_BUDGET);
  const checkRun = await checkRunStep(inputs, ctx, { report, conclusion: verdict.conclusion, view: summaryView(view), runLines: view.head.lines, pictures: checkPictures, baseline, tracked }, logger);
  if (inputs.annotations && inputs.mode !== 'publish' && !checkRun.annotated) {
    annotate(report.findings.filter((f) => tracked.has(f.file)), deps.annotations, { perLevel: inputs.maxAnnotations, added: new Set(verdict.delta?.added.map((f) => f.fingerprint)) });
  }

  setRunOutputs(setOutput, { report, verdict, reportPath, commentUrl, checkRunUrl: checkRun.url, uploaded, sealDigest, catalogChanged: diff ? String(diff.changed) : 'false' });

  if (verdict.state === 'nothing-audited' && inputs.failOnEmpty) return `agent-trace-audit: ${verdict.headline} (fail-on-empty is true)`;
  if (failed && !verdict.failedBy.findings && verdict.failedBy.unread) return `agent-trace-audit: ${verdict.headline}; failing on trace files not read (fail-on-unread is true)`;
  if (failed) return `agent-trace-audit: ${verdict.headline}; failing on '${config.failOn}' and above${verdict.gate === 'new' ? ' (gate: new)' : ''}`;
  return undefined;
}

/** The step's outputs, once everything is written. */
function setRunOutputs(
  setOutput: ActionDeps['setOutput'],
  run: { report: Report; verdict: Verdict; reportPath: string; commentUrl: string; checkRunUrl: string; uploaded: Awaited<ReturnType<typeof uploadFolder>>; sealDigest: string; catalogChanged: string },
): void {
  const s = run.report.summary.findings;
  const { verdict } = run;
  setOutput('conclusion', verdict.conclusion);
  setOutput('verdict', verdict.headline);
  setOutput('unread-files', verdict.coverage.unread.length);
  setOutput('new-findings', verdict.delta?.added.length ?? 0);
  setOutput('new-errors', verdict.added.error);
  setOutput('fixed-findings', verdict.delta?.fixed.length ?? 0);
  setOutput('flaky-findings', verdict.delta?.flaky.length ?? 0);
  setOutput('findings', s.error + s.warning + s.note);
  setOutput('errors', s.error);
  setOutput('warnings', s.warning);
  setOutput('notes', s.note);
  setOutput('report-json', run.reportPath);
  setOutput('comment-url', run.commentUrl);
  setOutput('check-run-url', run.checkRunUrl);
  setOutput('artifact-id', run.uploaded ? String(run.uploaded.id) : '');
  setOutput('artifact-url', run.uploaded?.url ?? '');
  setOutput('artifact-digest', run.uploaded?.digest ?? '');
  setOutput('seal-digest', run.sealDigest);
  setOutput('catalog-changed', run.catalogChanged);
}

/** The report to compare with: the base branch's, for a pull request with the baseline input on. */
async function baselineFor(inputs: ActionInputs, ctx: RunContext, pr: PullRequestRef | undefined, artifactName: string): Promise<Baseline | undefined> {
  if (!pr || inputs.baseline.kind === 'off') return undefined;
  const api = restClient(inputs.token, ctx.apiUrl);
  const match = inputs.mode === 'audit' && inputs.shard !== '' ? { exact: artifactName } : { prefix: artifactNameFor(inputs.artifactName, '', inputs.name) };
  // publish: the baseline is the audited workflow's report on the PR's base branch, not this workflow's.
  const baseCtx = inputs.mode === 'publish' ? { ...ctx, pullRequest: pr, workflowFile: ctx.workflowRun?.workflowFile || undefined } : ctx;
  return fetchBaseline(inputs.baseline, baseCtx, api, inputs.token, match, inputs.baselineRuns);
}

/** The job summary (src/report/render/summary.ts, as the CLI's markdown) with the run lines and the timelines. A failure is a warning. */
async function writeJobSummary(sourced: Sourced, view: ViewArgs, logger: Logger): Promise<void> {
  try {
    const pictures = mermaidSection(sourced.report, sourced.timelines ?? [], MERMAID_SUMMARY_BUDGET, { runs: 5 });
    await core.summary.addRaw(renderSummary(sourced.report, summaryView(view), { runLines: view.head.lines, tail: pictures }).markdown).write();
  } catch (error) {
    logger.warning(`could not write the job summary: ${firstLine(error)}`);
  }
}

/** The PR comment, created or brought up to date; its URL, or '' when none is due. */
async function commentStep(inputs: ActionInputs, ctx: RunContext, view: ViewArgs, sourced: Sourced, logger: Logger): Promise<string> {
  const { report } = sourced;
  const issueNumber = commentTarget(inputs, ctx, view.pr);
  if (issueNumber === undefined) return '';
  const marker = commentMarker(inputs.mode === 'audit' ? inputs.shard : '', inputs.name);
  const timelines = (maxChars: number) => mermaidSection(report, sourced.timelines ?? [], maxChars, { heading: false });
  const state = commentState(view);
  const body = renderComment(report, commentInput(view, timelines, [marker, state])).markdown;
  const api = restClient(inputs.token, ctx.apiUrl);
  // on-findings: a clean run creates no comment, but a stale one from an earlier run is brought up to date.
  // changes: a comment that shows the same verdict, new and fixed findings is left alone; none is created for a run with nothing new, fixed or failing.
  const changes = inputs.commentMode === 'changes';
  const delta = view.judged.verdict.delta ?? undefined;
  const quiet = delta !== undefined ? delta.added.length + delta.fixed.length === 0 && !view.judged.verdict.failed : report.findings.length === 0;
  const create = !((inputs.commentMode === 'on-findings' && report.findings.length === 0) || (changes && quiet));
  const outcome = await upsertComment(api, { owner: ctx.owner, repo: ctx.repo, issueNumber, marker }, body, logger, { create, ...(changes ? { keep: state } : {}) });
  return outcome.url;
}

/** The pull request this run reports on: the event's, or in publish mode the one the workflow_run belongs to. */
async function pullRequestFor(inputs: ActionInputs, ctx: RunContext, logger: Logger): Promise<PullRequestRef | undefined> {
  if (inputs.mode !== 'publish') return ctx.pullRequest;
  if (inputs.token === '') return undefined;
  try {
    const found = await findPullRequest(ctx, restClient(inputs.token, ctx.apiUrl));
    if (found === undefined) logger.warning('no open pull request matches the workflow run; no comment');
    return found;
  } catch (error) {
    logger.warning(`could not find the pull request: ${firstLine(error)}`);
    return undefined;
  }
}

/** The issue number to comment on, or undefined when no comment is due. */
function commentTarget(inputs: ActionInputs, ctx: RunContext, pr: PullRequestRef | undefined): number | undefined {
  if (inputs.commentMode === 'off' || inputs.comment === false) return undefined;
  if (inputs.token === '') return undefined;
  return pr?.number;
}
