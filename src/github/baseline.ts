import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Report } from '../report/schema.js';
import { suiteReports } from './artifacts/artifact-name.js';
import { firstLine, readCapped, withVerifiedDownload, type RemoteRun } from './artifacts/artifact.js';
import type { BaselineInput } from './inputs.js';
import type { RunContext } from './context.js';
import { mergeReports } from '../report/merge.js';
import type { Octokit } from './octokit.js';
import { MAX_STORED_REPORT_BYTES, parseStoredReport, REPORT_FILE } from './artifacts/stored-report.js';

const run = promisify(execFile);

export type Baseline = { found: true; report: Report; source: string } | { found: false; reason: string };

/**
 * The base branch's report for a pull request. `artifact`: the report
 * artifact of the latest completed run of this workflow on the base branch
 * (a run that failed on its findings still uploaded its report),
 * in this repository only, digest-checked. `file:<path>`: the file as it is
 * at the base commit (git show), never the PR checkout. Never throws.
 */
export async function fetchBaseline(input: BaselineInput, ctx: RunContext, api: Octokit, token: string, artifacts: ArtifactMatch): Promise<Baseline> {
  if (input.kind === 'off') return { found: false, reason: 'baseline comparison is off' };
  const pr = ctx.pullRequest;
  if (!pr) return { found: false, reason: 'not a pull request, so there is no base branch to compare with' };
  try {
    if (input.kind === 'file') return await fromCommittedFile(ctx.workspace, pr.baseSha, input.path);
    return await fromArtifact(ctx, api, token, artifacts, pr.baseRef);
  } catch (error) {
    return { found: false, reason: `the baseline could not be read: ${firstLine(error)}` };
  }
}

async function fromCommittedFile(workspace: string, baseSha: string, path: string): Promise<Baseline> {
  if (!/^[0-9a-f]{40,64}$/.test(baseSha)) return { found: false, reason: 'the event has no base commit' };
  if (path.includes('..') || path.startsWith('/')) return { found: false, reason: `baseline path ${JSON.stringify(path)} must be relative to the repository root` };
  let text: string;
  try {
    const out = await run('git', ['show', `${baseSha}:${path}`], { cwd: workspace, maxBuffer: MAX_STORED_REPORT_BYTES, encoding: 'utf8' });
    text = out.stdout;
  } catch {
    return { found: false, reason: `${path} is not in the base commit ${baseSha.slice(0, 12)} (or the checkout lacks it: use fetch-depth: 0)` };
  }
  return { found: true, report: parseStoredReport(text, `${path}@${baseSha.slice(0, 12)}`), source: `${path} at ${baseSha.slice(0, 12)}` };
}

/**
 * Which report artifacts of the base run count: a shard compares with the
 * same shard (`exact`); a merged or unsharded report with the run's `<base>`
 * report, or without one its `<base>-<shard id>` reports merged.
 */
export type ArtifactMatch = { exact: string } | { prefix: string };

/**
 * The base run's reports to compare with: the shard's own, or this suite's
 * whole report when the run has one, else its shards merged; never another
 * suite's (`<prefix>-<name>`).
 */
function wantedReports<T extends { readonly name: string }>(listed: readonly T[], match: ArtifactMatch): T[] {
  if ('exact' in match) return listed.filter((a) => a.name === match.exact);
  const whole = listed.filter((a) => a.name === match.prefix);
  return whole.length > 0 ? whole : suiteReports(listed, match.prefix);
}

async function fromArtifact(ctx: RunContext, api: Octokit, token: string, match: ArtifactMatch, baseRef: string): Promise<Baseline> {
  if (!ctx.workflowFile) return { found: false, reason: 'the workflow file is unknown (GITHUB_WORKFLOW_REF is not set)' };
  const { owner, repo } = ctx;
  const runs = await api.rest.actions.listWorkflowRuns({ owner, repo, workflow_id: ctx.workflowFile, branch: baseRef, status: 'completed', per_page: 20 });
  const ownRuns = runs.data.workflow_runs.filter((r) => r.head_repository?.full_name === `${owner}/${repo}` && r.head_branch === baseRef);
  const latest = ownRuns[0];
  if (!latest) return { found: false, reason: `no completed run of ${ctx.workflowFile} on ${baseRef} in this repository` };
  const listed = await api.paginate(api.rest.actions.listWorkflowRunArtifacts, { owner, repo, run_id: latest.id, per_page: 100 });
  const wanted = wantedReports(listed, match).sort((a, b) => (a.name < b.name ? -1 : 1));
  const label = 'exact' in match ? match.exact : `${match.prefix}*`;
  if (wanted.length === 0) return { found: false, reason: `run ${latest.id} on ${baseRef} has no report artifact ${JSON.stringify(label)}` };
  if (wanted.every((a) => a.expired)) return { found: false, reason: `the baseline artifact of run ${latest.id} has expired` };
  const remote: RemoteRun = { token, owner, repo, runId: latest.id };
  const reports: Report[] = [];
  for (const artifact of wanted.filter((a) => !a.expired)) {
    const described = { name: artifact.name, id: artifact.id, size: artifact.size_in_bytes, digest: artifact.digest ?? undefined };
    const text = await withVerifiedDownload(remote, described, ctx.tempDir, (folder) => readCapped(join(folder, REPORT_FILE), MAX_STORED_REPORT_BYTES));
    reports.push(parseStoredReport(text, `artifact ${artifact.name} of run ${latest.id}`));
  }
  return { found: true, report: mergeReports(reports), source: `run ${latest.id} on ${baseRef}` };
}
