import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Report } from '../report/schema.js';
import type { BaseReport } from '../report/verdict/judge.js';
import { suiteReports } from './artifacts/artifact-name.js';
import { firstLine, readCapped, withVerifiedDownload, type RemoteRun } from './artifacts/artifact.js';
import type { BaselineInput } from './inputs.js';
import type { RunContext } from './context.js';
import { mergeReports } from '../report/merge.js';
import type { Octokit } from './octokit.js';
import { MAX_STORED_REPORT_BYTES, parseStoredReport, REPORT_FILE } from './artifacts/stored-report.js';

const run = promisify(execFile);

/**
 * The base reports found: `reports`, newest first (one per run), and `report`, the newest,
 * which the tool catalogs and counts are compared with.
 */
export type Baseline = { found: true; report: Report; reports: readonly BaseReport[]; source: string } | { found: false; reason: string };

/** Runs of the workflow on the base branch looked at, at most, to find `runs` with a report. */
const RUNS_LISTED = 50;

/**
 * The base branch's reports for a pull request. `artifact`: the report
 * artifacts of the last `runs` completed runs of this workflow on the base branch
 * that uploaded one (a run that failed on its findings still uploaded its report),
 * in this repository only, digest-checked. `file:<path>`: the file as it is
 * at the base commit (git show), never the PR checkout. Never throws.
 */
export async function fetchBaseline(input: BaselineInput, ctx: RunContext, api: Octokit, token: string, artifacts: ArtifactMatch, runs = 1): Promise<Baseline> {
  if (input.kind === 'off') return { found: false, reason: 'baseline comparison is off' };
  const pr = ctx.pullRequest;
  if (!pr) return { found: false, reason: 'not a pull request, so there is no base branch to compare with' };
  try {
    if (input.kind === 'file') return await fromCommittedFile(ctx.workspace, pr.baseSha, input.path);
    return await fromArtifacts(ctx, api, token, artifacts, pr.baseRef, runs);
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
  const source = `${path} at ${baseSha.slice(0, 12)}`;
  const report = parseStoredReport(text, `${path}@${baseSha.slice(0, 12)}`);
  return { found: true, report, reports: [{ report, source, runId: null, time: null }], source };
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

type ListedRun = { readonly id: number; readonly created_at?: string | null };
type RunReport = { found: true; report: Report } | { found: false; reason: string };

async function fromArtifacts(ctx: RunContext, api: Octokit, token: string, match: ArtifactMatch, baseRef: string, wanted: number): Promise<Baseline> {
  if (!ctx.workflowFile) return { found: false, reason: 'the workflow file is unknown (GITHUB_WORKFLOW_REF is not set)' };
  const { owner, repo } = ctx;
  const listed = await api.rest.actions.listWorkflowRuns({ owner, repo, workflow_id: ctx.workflowFile, branch: baseRef, status: 'completed', per_page: RUNS_LISTED });
  const ownRuns: ListedRun[] = listed.data.workflow_runs.filter((r) => r.head_repository?.full_name === `${owner}/${repo}` && r.head_branch === baseRef);
  if (ownRuns.length === 0) return { found: false, reason: `no completed run of ${ctx.workflowFile} on ${baseRef} in this repository` };
  const reports: BaseReport[] = [];
  let firstMiss = '';
  // Newest first; a run without this suite's report (it failed before the upload, or expired) is passed over.
  for (const run of ownRuns) {
    if (reports.length >= wanted) break;
    const got = await runReport(ctx, api, token, match, run.id, baseRef);
    if (got.found) reports.push({ report: got.report, source: `run ${run.id} on ${baseRef}`, runId: run.id, time: run.created_at ?? null });
    else if (firstMiss === '') firstMiss = got.reason;
  }
  if (reports.length === 0) return { found: false, reason: firstMiss };
  const ids = reports.map((r) => r.runId);
  return { found: true, report: reports[0]!.report, reports, source: `${ids.length === 1 ? 'run' : 'runs'} ${ids.join(', ')} on ${baseRef}` };
}

/** One base run's report: its report artifact(s) for this suite, digest-checked and merged. */
async function runReport(ctx: RunContext, api: Octokit, token: string, match: ArtifactMatch, runId: number, baseRef: string): Promise<RunReport> {
  const { owner, repo } = ctx;
  const listed = await api.paginate(api.rest.actions.listWorkflowRunArtifacts, { owner, repo, run_id: runId, per_page: 100 });
  const wanted = wantedReports(listed, match).sort((a, b) => (a.name < b.name ? -1 : 1));
  const label = 'exact' in match ? match.exact : `${match.prefix}*`;
  if (wanted.length === 0) return { found: false, reason: `run ${runId} on ${baseRef} has no report artifact ${JSON.stringify(label)}` };
  if (wanted.every((a) => a.expired)) return { found: false, reason: `the baseline artifact of run ${runId} has expired` };
  const remote: RemoteRun = { token, owner, repo, runId };
  const reports: Report[] = [];
  for (const artifact of wanted.filter((a) => !a.expired)) {
    const described = { name: artifact.name, id: artifact.id, size: artifact.size_in_bytes, digest: artifact.digest ?? undefined };
    const text = await withVerifiedDownload(remote, described, ctx.tempDir, (folder) => readCapped(join(folder, REPORT_FILE), MAX_STORED_REPORT_BYTES));
    reports.push(parseStoredReport(text, `artifact ${artifact.name} of run ${runId}`));
  }
  return { found: true, report: mergeReports(reports) };
}
