import * as core from '@actions/core';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isFailing } from '../core.js';
import type { Logger } from '../logger.js';
import { renderWithinBudget, SUMMARY_LIMIT } from '../report/budget.js';
import { renderComment } from '../report/comment/render.js';
import { renderHtml } from '../report/html/render.js';
import { writeJsonFile } from '../report/json.js';
import { mermaidSection } from '../report/mermaid.js';
import { renderSarif, SARIF_MAX_RESULTS } from '../report/sarif.js';
import { annotate, type AnnotationSink } from '../github/annotations.js';
import { artifactNameFor, commentMarker, shardId } from '../github/artifact-name.js';
import { firstLine, uploadFolder } from '../github/artifact.js';
import { fetchBaseline, type Baseline } from '../github/baseline.js';
import { checkRunStep } from './check-run-step.js';
import { upsertComment } from '../github/comment.js';
import { commentInput, summaryHead, type ViewArgs } from './comment-view.js';
import { runUrl, type PullRequestRef, type RunContext } from '../github/context.js';
import type { ActionInputs } from '../github/inputs.js';
import { restClient } from '../github/octokit.js';
import { findPullRequest } from '../github/remote-reports.js';
import { headLines } from './report-lines.js';
import { sourceReport } from './report-source.js';
import { sealInputs, type SealFile } from './seal-step.js';
import { REPORT_FILE } from '../github/stored-report.js';

/** The HTML report in the artifact, and the share of the summary's size budget the Mermaid timelines may take. */
export const HTML_REPORT_FILE = 'report.html';
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
}

/**
 * One Action run: source the report (audit / merge / publish), write the
 * JSON report, SARIF, seal + upload, summary, comment and annotations, set
 * the outputs, and only then say whether the job fails. Reporting problems
 * are warnings. Returns the failure message, or undefined.
 */
export async function runAction(inputs: ActionInputs, ctx: RunContext, deps: ActionDeps): Promise<string | undefined> {
  const { logger, setOutput } = deps;
  const sourced = await sourceReport(inputs, ctx, logger, deps.workerEntry ?? null);
  const { report, config } = sourced;
  if (sourced.empty) logger.warning(inputs.mode === 'audit' ? `no trace files matched ${[...inputs.traces, ...inputs.artifacts.map((a) => `artifact ${a}`)].join(', ')}` : `no report artifacts named ${inputs.artifactName}* were found`);

  const outDir = await mkdtemp(join(ctx.tempDir || tmpdir(), 'agent-trace-audit-'));
  const reportPath = join(outDir, REPORT_FILE);
  // In pieces: the report is never one string (same bytes as renderJson).
  await writeJsonFile(report, reportPath);
  await writeFile(join(outDir, HTML_REPORT_FILE), renderHtml(report, sourced.timelines ?? []));
  if (inputs.sarifFile !== '') {
    const sarifPath = resolve(ctx.workspace, inputs.sarifFile);
    await mkdir(dirname(sarifPath), { recursive: true });
    await writeFile(sarifPath, renderSarif(report));
    if (report.findings.length > SARIF_MAX_RESULTS) {
      logger.warning(`the SARIF file holds the ${SARIF_MAX_RESULTS} most severe of ${report.findings.length} findings (code scanning keeps ${SARIF_MAX_RESULTS} results per run and rejects more than 25,000); report.json has them all`);
    }
    setOutput('sarif-file', sarifPath);
  }

  let sealDigest = '';
  if (inputs.mode === 'audit' && inputs.seal && deps.sealFile && sourced.inputs.length > 0) {
    sealDigest = (await sealInputs(sourced.inputs, outDir, deps.sealFile, logger)).digest;
  }
  const artifactName = artifactNameFor(inputs.artifactName, inputs.mode === 'audit' ? inputs.shard : '');
  const uploaded = inputs.mode === 'audit' && inputs.upload ? await uploadFolder(artifactName, outDir, inputs.retentionDays, runUrl(ctx), logger) : undefined;

  const failed = isFailing(report, config.failOn) || (sourced.empty && inputs.failOnEmpty);
  const pr = await pullRequestFor(inputs, ctx, logger);
  let baseline: Baseline | undefined;
  if (pr && inputs.baseline.kind !== 'off') {
    const api = restClient(inputs.token, ctx.apiUrl);
    const match = inputs.mode === 'audit' && inputs.shard !== '' ? { exact: artifactName } : { prefix: inputs.artifactName };
    // publish: the baseline is the audited workflow's report on the PR's base branch, not this workflow's.
    const baseCtx = inputs.mode === 'publish' ? { ...ctx, pullRequest: pr, workflowFile: ctx.workflowRun?.workflowFile || undefined } : ctx;
    baseline = await fetchBaseline(inputs.baseline, baseCtx, api, inputs.token, match);
  }
  const links = { runUrl: runUrl(ctx), artifactUrl: uploaded?.url ?? '', artifactName, sealDigest, shard: inputs.mode === 'audit' ? shardId(inputs.shard) : '' };
  const head = headLines(report, links, baseline);
  const { diff } = head;
  const view: ViewArgs = {
    report,
    ctx,
    pr,
    baseline,
    noBaseline: !pr ? 'this run is not for a pull request' : 'the baseline input is off',
    failOn: config.failOn,
    failed,
    head,
    more: { runUrl: inputs.mode === 'publish' && ctx.workflowRun ? runUrl({ ...ctx, runId: ctx.workflowRun.id }) : runUrl(ctx), artifactUrl: uploaded?.url ?? '' },
    artifactsRunId: inputs.mode === 'publish' && ctx.workflowRun ? ctx.workflowRun.id : (inputs.artifactsRunId ?? ctx.runId),
  };

  // The job summary and the check run's summary lead with the same lines.
  const summaryLead = summaryHead(view);
  if (inputs.summary) {
    try {
      const pictures = mermaidSection(report, sourced.timelines ?? [], MERMAID_SUMMARY_BUDGET, { runs: 5 });
      await core.summary.addRaw(renderWithinBudget(report, SUMMARY_LIMIT, { lead: summaryLead, tail: pictures }).markdown).write();
    } catch (error) {
      logger.warning(`could not write the job summary: ${firstLine(error)}`);
    }
  }

  let commentUrl = '';
  const issueNumber = commentTarget(inputs, ctx, pr);
  const total = report.findings.length;
  if (issueNumber !== undefined) {
    const marker = commentMarker(inputs.mode === 'audit' ? inputs.shard : '');
    const timelines = (maxChars: number) => mermaidSection(report, sourced.timelines ?? [], maxChars);
    const body = renderComment(report, commentInput(view, timelines, [marker])).markdown;
    const api = restClient(inputs.token, ctx.apiUrl);
    // on-findings: a clean run creates no comment, but a stale one from an earlier run is brought up to date.
    const create = !(inputs.commentMode === 'on-findings' && total === 0);
    const outcome = await upsertComment(api, { owner: ctx.owner, repo: ctx.repo, issueNumber, marker }, body, logger, { create });
    commentUrl = outcome.url;
  }

  const checkPictures = mermaidSection(report, sourced.timelines ?? [], MERMAID_CHECK_RUN_BUDGET);
  const checkRun = await checkRunStep(inputs, ctx, { report, failed, empty: sourced.empty, lead: summaryLead, pictures: checkPictures, baseline }, logger);
  if (inputs.annotations && inputs.mode !== 'publish' && !checkRun.annotated) {
    annotate(report.findings, deps.annotations, { perLevel: inputs.maxAnnotations, added: new Set(diff?.delta.added.map((f) => f.fingerprint)) });
  }

  const s = report.summary.findings;
  setOutput('conclusion', failed ? 'failure' : 'success');
  setOutput('findings', s.error + s.warning + s.note);
  setOutput('errors', s.error);
  setOutput('warnings', s.warning);
  setOutput('notes', s.note);
  setOutput('report-json', reportPath);
  setOutput('comment-url', commentUrl);
  setOutput('check-run-url', checkRun.url);
  setOutput('artifact-id', uploaded ? String(uploaded.id) : '');
  setOutput('artifact-url', uploaded?.url ?? '');
  setOutput('artifact-digest', uploaded?.digest ?? '');
  setOutput('seal-digest', sealDigest);
  setOutput('catalog-changed', diff ? String(diff.changed) : 'false');

  if (sourced.empty && inputs.failOnEmpty) return 'agent-trace-audit: nothing to audit (fail-on-empty is true)';
  if (failed) return `agent-trace-audit: ${s.error} error(s), ${s.warning} warning(s), ${s.note} note(s); failing on '${config.failOn}' and above`;
  return undefined;
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
