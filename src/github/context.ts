import { readFileSync } from 'node:fs';

/** A pull request, its base commit and branch, and its head commit. */
export interface PullRequestRef {
  readonly number: number;
  readonly baseSha: string;
  readonly baseRef: string;
  readonly headSha: string;
}

/** What the Action needs from the event and the runner environment; untrusted payload fields are checked here. */
export interface RunContext {
  readonly eventName: string;
  readonly owner: string;
  readonly repo: string;
  readonly runId: number;
  /** GITHUB_SHA: the commit the run was triggered for (on pull_request, the merge commit: use pullRequest.headSha). */
  readonly sha: string;
  readonly serverUrl: string;
  readonly apiUrl: string;
  readonly workspace: string;
  readonly tempDir: string;
  /** The workflow file (e.g. ci.yml), from GITHUB_WORKFLOW_REF. */
  readonly workflowFile: string | undefined;
  readonly pullRequest: PullRequestRef | undefined;
  readonly workflowRun:
    | {
        id: number;
        headSha: string;
        headBranch: string;
        headOwner: string;
        headRepo: string;
        prNumbers: number[];
        conclusion: string;
        /** The audited workflow's file (e.g. agents.yml), from workflow_run.path: its base-branch runs hold the baseline. */
        workflowFile: string;
        /** The event's pull requests with their base (filled in by GitHub for same-repository PRs only). */
        pullRequests: PullRequestRef[];
      }
    | undefined;
}

export function readContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  const [owner = '', repo = ''] = (env['GITHUB_REPOSITORY'] ?? '').split('/');
  const eventPath = env['GITHUB_EVENT_PATH'];
  let payload: unknown = {};
  if (eventPath) {
    try {
      payload = JSON.parse(readFileSync(eventPath, 'utf8'));
    } catch {
      payload = {};
    }
  }
  const workflowRef = env['GITHUB_WORKFLOW_REF'] ?? '';
  const workflowMatch = /\/\.github\/workflows\/([^@/]+)@/.exec(workflowRef);
  return {
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    owner,
    repo,
    runId: Number(env['GITHUB_RUN_ID'] ?? 0),
    sha: env['GITHUB_SHA'] ?? '',
    serverUrl: env['GITHUB_SERVER_URL'] ?? 'https://github.com',
    apiUrl: env['GITHUB_API_URL'] ?? 'https://api.github.com',
    workspace: env['GITHUB_WORKSPACE'] ?? process.cwd(),
    tempDir: env['RUNNER_TEMP'] ?? '',
    workflowFile: workflowMatch?.[1],
    pullRequest: pullRequestOf(payload),
    workflowRun: workflowRunOf(payload),
  };
}

function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

function pullRequestOf(payload: unknown): RunContext['pullRequest'] {
  return pullRequestRef(field(payload, 'pull_request'));
}

/** A pull request object (event payload or REST), or undefined when it has no whole-number number. */
export function pullRequestRef(pr: unknown): PullRequestRef | undefined {
  const number = field(pr, 'number');
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) return undefined;
  return { number, baseSha: str(field(pr, 'base', 'sha')), baseRef: str(field(pr, 'base', 'ref')), headSha: str(field(pr, 'head', 'sha')) };
}

function workflowRunOf(payload: unknown): RunContext['workflowRun'] {
  const id = field(payload, 'workflow_run', 'id');
  if (typeof id !== 'number') return undefined;
  const prs = field(payload, 'workflow_run', 'pull_requests');
  const prNumbers = Array.isArray(prs) ? prs.map((pr) => field(pr, 'number')).filter((n): n is number => typeof n === 'number') : [];
  return {
    id,
    headSha: str(field(payload, 'workflow_run', 'head_sha')),
    headBranch: str(field(payload, 'workflow_run', 'head_branch')),
    headOwner: str(field(payload, 'workflow_run', 'head_repository', 'owner', 'login')),
    headRepo: str(field(payload, 'workflow_run', 'head_repository', 'full_name')),
    prNumbers,
    conclusion: str(field(payload, 'workflow_run', 'conclusion')),
    workflowFile: /^\.github\/workflows\/([^/]+)$/.exec(str(field(payload, 'workflow_run', 'path')))?.[1] ?? '',
    pullRequests: Array.isArray(prs) ? prs.map(pullRequestRef).filter((pr): pr is PullRequestRef => pr !== undefined) : [],
  };
}

export function runUrl(ctx: RunContext): string {
  return `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}`;
}
