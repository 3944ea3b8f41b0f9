import { createHash } from 'node:crypto';
import { ANNOTATIONS_PER_REQUEST, batches, type CheckAnnotation } from '../report/render/check-annotations.js';
import { statusOf, type Octokit } from './octokit.js';
import { RateLimitedError, TOTAL_RATE_LIMIT_WAIT_MS, withRateLimit, type RateLimitOptions } from './rate-limit.js';

/** Where the check run goes and how we know it again: name, head commit, and our marker in external_id. */
export interface CheckRunTarget {
  readonly owner: string;
  readonly repo: string;
  readonly headSha: string;
  readonly name: string;
  /** `agent-trace-audit:check` plus the shard id; external_id is `<marker>;<digest of the annotations>`. */
  readonly marker: string;
  readonly detailsUrl: string;
}

export interface CheckRunContent {
  readonly conclusion: 'success' | 'neutral' | 'failure';
  readonly title: string;
  readonly summary: string;
  readonly annotations: readonly CheckAnnotation[];
}

export type CheckRunOutcome =
  | { readonly kind: 'created' | 'updated'; readonly id: number; readonly url: string; readonly sent: number }
  | { readonly kind: 'forbidden'; readonly status: number }
  /** created: the check run exists (with its conclusion and summary), only annotations are missing. */
  | { readonly kind: 'rate-limited' | 'failed'; readonly reason: string; readonly sent: number; readonly created: boolean; readonly url: string };

/** Pages of check runs read when looking for ours (100 each): a commit rarely has more than a few dozen. */
const MAX_LIST_PAGES = 10;

/**
 * One check run per name and commit. Ours is found by name, head SHA and the
 * marker in external_id (every page); when its annotations are the ones we
 * would send, it is updated in place and only the annotations an interrupted
 * earlier attempt did not send are added (annotations cannot be removed, so a
 * run whose set differs is marked superseded and a new one created). The
 * first request carries the conclusion, so a run stopped by a rate limit is
 * still complete; annotations follow 50 per request. Never throws.
 */
export async function upsertCheckRun(api: Octokit, target: CheckRunTarget, content: CheckRunContent, limits: RateLimitOptions = {}): Promise<CheckRunOutcome> {
  const { owner, repo } = target;
  const digest = annotationDigest(content.annotations);
  const externalId = `${target.marker};${digest}`;
  const output = { title: content.title, summary: content.summary };
  // One wait budget for every request of this check run: a run of rate limits cannot hold the job for long.
  limits = { ...limits, budget: limits.budget ?? { remainingMs: TOTAL_RATE_LIMIT_WAIT_MS } };
  const call = <T>(request: () => Promise<T>) => withRateLimit(request, limits);
  let sent = 0;
  let id: number | undefined;
  let url = '';
  try {
    const existing = await findOurs(api, target, limits);
    const finished = { status: 'completed' as const, conclusion: content.conclusion, completed_at: new Date().toISOString(), details_url: target.detailsUrl, external_id: externalId };
    let kind: 'created' | 'updated';
    let from: number;
    if (existing && existing.digest === digest && existing.annotations <= content.annotations.length) {
      from = existing.annotations;
      const first = content.annotations.slice(from, from + ANNOTATIONS_PER_REQUEST);
      const res = await call(() => api.rest.checks.update({ owner, repo, check_run_id: existing.id, ...finished, output: { ...output, ...(first.length > 0 ? { annotations: [...first] } : {}) } }));
      id = res.data.id;
      url = res.data.html_url ?? '';
      sent = first.length;
      from += first.length;
      kind = 'updated';
    } else {
      if (existing) {
        const superseded = { title: 'Superseded', summary: 'A later run of agent-trace-audit on this commit found different findings; see the check run of the same name created after this one.' };
        await call(() => api.rest.checks.update({ owner, repo, check_run_id: existing.id, status: 'completed', conclusion: 'neutral', external_id: `${target.marker};superseded`, output: superseded }));
      }
      const first = content.annotations.slice(0, ANNOTATIONS_PER_REQUEST);
      const res = await call(() =>
        api.rest.checks.create({ owner, repo, name: target.name, head_sha: target.headSha, ...finished, output: { ...output, ...(first.length > 0 ? { annotations: [...first] } : {}) } }),
      );
      id = res.data.id;
      url = res.data.html_url ?? '';
      sent = first.length;
      from = first.length;
      kind = 'created';
    }
    for (const batch of batches(content.annotations.slice(from))) {
      await call(() => api.rest.checks.update({ owner, repo, check_run_id: id!, output: { ...output, annotations: batch } }));
      sent += batch.length;
    }
    return { kind, id: id!, url, sent };
  } catch (error) {
    const created = id !== undefined;
    if (error instanceof RateLimitedError) return { kind: 'rate-limited', reason: error.message, sent, created, url };
    const status = statusOf(error);
    if ((status === 403 || status === 401) && !created) return { kind: 'forbidden', status };
    return { kind: 'failed', reason: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error), sent, created, url };
  }
}

interface Existing {
  readonly id: number;
  readonly digest: string;
  readonly annotations: number;
}

/** Our check run on the commit: the newest one of our name whose external_id carries our marker. */
async function findOurs(api: Octokit, target: CheckRunTarget, limits: RateLimitOptions): Promise<Existing | undefined> {
  const { owner, repo, headSha: ref, name } = target;
  let found: Existing | undefined;
  let pages = 0;
  const iterator = api.paginate.iterator(api.rest.checks.listForRef, { owner, repo, ref, check_name: name, filter: 'all', per_page: 100 })[Symbol.asyncIterator]();
  const next = () => withRateLimit(() => iterator.next(), limits);
  for (let page = await next(); !page.done && pages < MAX_LIST_PAGES; page = await next(), pages++) {
    for (const run of page.value.data) {
      const externalId = run.external_id ?? '';
      const cut = externalId.lastIndexOf(';');
      if (run.name !== name || cut === -1 || externalId.slice(0, cut) !== target.marker || run.head_sha !== ref) continue;
      if (found === undefined || run.id > found.id) found = { id: run.id, digest: externalId.slice(cut + 1), annotations: run.output.annotations_count ?? 0 };
    }
  }
  return found;
}

/** A short digest of the annotations (the order counts): a rerun with the same ones updates in place. */
export function annotationDigest(annotations: readonly CheckAnnotation[]): string {
  return createHash('sha256').update(JSON.stringify(annotations)).digest('hex').slice(0, 16);
}
