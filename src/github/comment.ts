import type { Logger } from '../logger.js';
import { statusOf, type Octokit } from './octokit.js';

/** The login that GITHUB_TOKEN comments as; a personal token is asked for its own login. */
export const ACTIONS_BOT = 'github-actions[bot]';

export const TWO_WORKFLOW_HINT =
  'This token cannot write to the pull request (a fork or Dependabot pull request gets a read-only token). ' +
  'The job summary has the full report. To get the comment, keep this job with mode: audit (it uploads the report) ' +
  'and add a second workflow on workflow_run that runs agent-trace-audit with mode: publish and permissions pull-requests: write, actions: read. ' +
  'See the README section "Fork pull requests: two workflows".';

export type CommentOutcome =
  | { kind: 'created' | 'updated' | 'unchanged'; url: string }
  | { kind: 'forbidden' | 'failed' | 'skipped'; url: '' };

export interface UpsertOptions {
  /** false: only an existing comment is updated, none is created. */
  readonly create?: boolean;
  /** An existing comment that holds this text is left as it is (comment-mode: changes; the hidden state line). */
  readonly keep?: string;
}

export interface CommentTarget {
  readonly owner: string;
  readonly repo: string;
  readonly issueNumber: number;
  readonly marker: string;
}

/**
 * One comment per pull request (per marker): found by the hidden marker AND
 * our author across every page, updated in place, left alone when the body is
 * unchanged; with `create: false` only an existing comment is updated. A token that cannot write is a warning with the two-workflow hint,
 * never a failure.
 */
export async function upsertComment(api: Octokit, target: CommentTarget, body: string, logger: Logger, options: UpsertOptions = {}): Promise<CommentOutcome> {
  const { owner, repo, issueNumber, marker } = target;
  try {
    const author = await authorLogin(api);
    const comments = await api.paginate(api.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 });
    const ours = comments.find((c) => c.user?.login === author && typeof c.body === 'string' && c.body.includes(marker));
    if (ours) {
      if (ours.body === body || (options.keep !== undefined && (ours.body ?? '').includes(options.keep))) {
        logger.info(`comment unchanged: ${ours.html_url}`);
        return { kind: 'unchanged', url: ours.html_url };
      }
      const updated = await api.rest.issues.updateComment({ owner, repo, comment_id: ours.id, body });
      logger.info(`comment updated: ${updated.data.html_url}`);
      return { kind: 'updated', url: updated.data.html_url };
    }
    if (options.create === false) return { kind: 'skipped', url: '' };
    const created = await api.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    logger.info(`comment created: ${created.data.html_url}`);
    return { kind: 'created', url: created.data.html_url };
  } catch (error) {
    const status = statusOf(error);
    if (status === 403 || status === 401) {
      logger.warning(`agent-trace-audit could not comment (HTTP ${status}). ${TWO_WORKFLOW_HINT}`);
      return { kind: 'forbidden', url: '' };
    }
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    logger.warning(`agent-trace-audit could not comment: ${message}`);
    return { kind: 'failed', url: '' };
  }
}

/** GITHUB_TOKEN cannot read /user (403): then the author is the Actions bot. */
async function authorLogin(api: Octokit): Promise<string> {
  try {
    const me = await api.rest.users.getAuthenticated();
    return me.data.login;
  } catch {
    return ACTIONS_BOT;
  }
}
