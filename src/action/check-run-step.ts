import type { Logger } from '../logger.js';
import { planAnnotations } from '../report/render/check-annotations.js';
import { CHECK_SUMMARY_LIMIT, checkSummaryTail, checkTitle } from '../report/render/check-summary.js';
import type { Report } from '../report/schema.js';
import type { Conclusion } from '../report/verdict/verdict.js';
import { checkRunIdentity } from '../github/artifacts/artifact-name.js';
import { renderSummary, type SummaryView } from '../report/render/summary.js';
import type { Baseline } from '../github/baseline.js';
import { upsertCheckRun } from '../github/check-run.js';
import { runUrl, type RunContext } from '../github/context.js';
import type { ActionInputs } from '../github/inputs.js';
import { restClient } from '../github/octokit.js';
import type { RateLimitOptions } from '../github/rate-limit.js';

export interface CheckRunStepInput {
  readonly report: Report;
  /** The verdict's conclusion: neutral when the findings pass but trace files went unread. */
  readonly conclusion: Conclusion;
  /** What the job summary is built from (its verdict's headline is the check run's title): the check run's summary is the job summary's renderer. */
  readonly view: SummaryView;
  /** The job summary's run lines (run, artifact, seal, metrics, catalog comparison). */
  readonly runLines: readonly string[];
  /** Mermaid timelines (already within their budget), as in the job summary. */
  readonly pictures: readonly string[];
  readonly baseline: Baseline | undefined;
  /** The files committed at the head commit: only these are annotated, the rest listed in the summary. */
  readonly tracked: ReadonlySet<string>;
}

/** annotated: the check run carries the annotations, so workflow-command annotations are not written. */
export interface CheckRunStepResult {
  readonly annotated: boolean;
  readonly url: string;
}

/**
 * The `check-run` step: one check run named `agent-trace-audit` (plus the
 * `name` input and the shard id) on the commit the reviewers see: the pull request's head (never
 * the merge commit), or in publish mode the triggering run's head, which is
 * the pull request's head the comment is matched by. A token that cannot
 * write checks falls back to workflow-command annotations with one log line;
 * a rate limit stops it with one warning. Never fails the job.
 */
export async function checkRunStep(inputs: ActionInputs, ctx: RunContext, step: CheckRunStepInput, logger: Logger, limits: RateLimitOptions = {}): Promise<CheckRunStepResult> {
  const none = { annotated: false, url: '' };
  if (inputs.checkRun === 'off') return none;
  const fallback = 'findings go out as workflow-command annotations instead';
  if (inputs.token === '') {
    logger.info(`no check run: github-token is empty; ${fallback}`);
    return none;
  }
  const headSha = headShaOf(inputs, ctx);
  if (!/^[0-9a-f]{40}$/.test(headSha)) {
    logger.info(`no check run: the event names no commit to put it on; ${fallback}`);
    return none;
  }
  const identity = checkRunIdentity(inputs.mode === 'audit' ? inputs.shard : '', inputs.name);
  const { report } = step;
  // New as the verdict counts it: no base run had it (any base run's fingerprints are not new).
  const baseFingerprints = step.baseline?.found ? new Set(step.baseline.reports.flatMap((b) => b.report.findings.map((f) => f.fingerprint))) : undefined;
  const plan = planAnnotations(report, { cap: inputs.annotations ? inputs.checkRunMaxAnnotations : 0, baseFingerprints, tracked: step.tracked });
  const tail = [...step.pictures, ...checkSummaryTail(plan, report.findings.length)];
  const summary = renderSummary(report, step.view, { limit: CHECK_SUMMARY_LIMIT, runLines: step.runLines, tail }).markdown;
  const target = {
    owner: ctx.owner,
    repo: ctx.repo,
    headSha,
    ...identity,
    detailsUrl: runUrl(ctx),
  };
  const content = { conclusion: step.conclusion, title: checkTitle(step.view.verdict.verdict.headline), summary, annotations: plan.annotations };
  const outcome = await upsertCheckRun(restClient(inputs.token, ctx.apiUrl), target, content, limits);
  const total = plan.annotations.length;
  switch (outcome.kind) {
    case 'created':
    case 'updated':
      logger.info(`check run ${outcome.kind} on ${headSha.slice(0, 12)}: ${outcome.url} (${outcome.sent} annotation(s) sent, ${total} in all)`);
      return { annotated: true, url: outcome.url };
    case 'forbidden':
      logger.info(`no check run: the token cannot write checks (HTTP ${outcome.status}; a fork pull request gets a read-only token, otherwise grant permissions checks: write); ${fallback}`);
      return none;
    case 'rate-limited':
    case 'failed':
      logger.warning(`check run ${outcome.kind === 'rate-limited' ? 'stopped by the rate limit' : 'not completed'} after ${outcome.sent} of ${total} annotation(s): ${outcome.reason}`);
      return { annotated: outcome.created, url: outcome.url };
  }
}

/** publish (and any job on workflow_run): the triggering run's head; a pull request: its head, never the merge commit; else GITHUB_SHA. */
function headShaOf(inputs: ActionInputs, ctx: RunContext): string {
  if (inputs.mode === 'publish' || ctx.eventName === 'workflow_run') return ctx.workflowRun?.headSha ?? '';
  return ctx.pullRequest?.headSha ?? ctx.sha;
}
