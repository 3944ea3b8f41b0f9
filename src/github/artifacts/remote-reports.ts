import { join } from 'node:path';
import type { Logger } from '../../logger.js';
import type { Report } from '../../report/schema.js';
import { firstLine, listRunArtifacts, readCapped, withVerifiedDownload, type RemoteRun } from './artifact.js';
import { pullRequestRef, type PullRequestRef, type RunContext } from '../context.js';
import { suiteReports } from './artifact-name.js';
import type { Octokit } from '../octokit.js';
import { MAX_STORED_REPORT_BYTES, parseStoredReport, REPORT_FILE } from './stored-report.js';

/**
 * The reports stored as artifacts of a run whose names match: `name` itself
 * or `name-<shard id>` (suiteReports). Each is downloaded to a temp folder, digest-checked,
 * size-capped and schema-validated; a bad one is a warning and skipped.
 */
export async function downloadReports(run: RemoteRun, artifactName: string, tempDir: string, logger: Logger): Promise<Report[]> {
  const artifacts = suiteReports(await listRunArtifacts(run), artifactName).sort((a, b) => (a.name < b.name ? -1 : 1));
  const reports: Report[] = [];
  for (const artifact of artifacts) {
    try {
      const text = await withVerifiedDownload(run, artifact, tempDir, (folder) => readCapped(join(folder, REPORT_FILE), MAX_STORED_REPORT_BYTES));
      reports.push(parseStoredReport(text, `artifact ${artifact.name}`));
      logger.info(`read the report of artifact ${JSON.stringify(artifact.name)}`);
    } catch (error) {
      logger.warning(`skipped artifact ${JSON.stringify(artifact.name)}: ${firstLine(error)}`);
    }
  }
  return reports;
}

/**
 * The pull request a workflow_run belongs to: from the event when GitHub
 * filled it in (same-repository PRs), else the open PR whose head is the
 * run's branch in the run's repository AND whose head commit is the run's commit;
 * with its base branch and commit, to compare with.
 */
export async function findPullRequest(ctx: RunContext, api: Octokit): Promise<PullRequestRef | undefined> {
  const wr = ctx.workflowRun;
  if (!wr) return undefined;
  if (wr.pullRequests.length > 0) return wr.pullRequests[0];
  if (wr.headOwner === '' || wr.headBranch === '') return undefined;
  const pulls = await api.paginate(api.rest.pulls.list, { owner: ctx.owner, repo: ctx.repo, state: 'open', head: `${wr.headOwner}:${wr.headBranch}`, per_page: 100 });
  return pullRequestRef(pulls.find((p) => p.head.sha === wr.headSha));
}
