import { DefaultArtifactClient } from '@actions/artifact';
import type { RemoteRun } from './artifact.js';
import { restClient } from '../octokit.js';
import { downloadVerified, type VerifiedDownload } from './verified-unzip.js';

/** One artifact as listed, before anything is downloaded. */
export interface ListedArtifact {
  readonly id: number;
  readonly name: string;
  /** Bytes of the zip as stored. */
  readonly size: number;
  /** `sha256:<hex>` of the zip, '' when the service recorded none. */
  readonly digest: string;
  readonly expired: boolean;
}

/**
 * Where the artifacts are: this run (read through the runner's artifact
 * service; no token permission needed) or another run, possibly of another
 * repository (the REST API; the token needs `actions: read` there).
 */
export type ArtifactRun = { readonly kind: 'current' } | { readonly kind: 'other'; readonly run: RemoteRun; readonly apiUrl: string };

export function describeRun(where: ArtifactRun): string {
  return where.kind === 'current' ? 'this workflow run' : `run ${where.run.runId} of ${where.run.owner}/${where.run.repo}`;
}

/** The artifacts of the run, the latest of each name. */
export async function listArtifacts(where: ArtifactRun): Promise<ListedArtifact[]> {
  if (where.kind === 'current') {
    const { artifacts } = await new DefaultArtifactClient().listArtifacts({ latest: true });
    return artifacts.map((a) => ({ id: a.id, name: a.name, size: a.size, digest: a.digest ?? '', expired: false }));
  }
  // Our own REST call: the client's list drops `expired`, which we report.
  const { run } = where;
  const api = restClient(run.token, where.apiUrl);
  const listed = await api.paginate(api.rest.actions.listWorkflowRunArtifacts, { owner: run.owner, repo: run.repo, run_id: run.runId, per_page: 100 });
  const latest = new Map<string, ListedArtifact>();
  for (const a of [...listed].sort((x, y) => y.id - x.id)) {
    if (latest.has(a.name)) continue;
    latest.set(a.name, { id: a.id, name: a.name, size: a.size_in_bytes, digest: a.digest ?? '', expired: a.expired });
  }
  return [...latest.values()];
}

/**
 * The fork a run came from (`owner/repo` of its head repository), or
 * undefined when the run belongs to the repository itself.
 */
export async function forkOf(where: Extract<ArtifactRun, { kind: 'other' }>): Promise<string | undefined> {
  const { run } = where;
  const api = restClient(run.token, where.apiUrl);
  const { data } = await api.rest.actions.getWorkflowRun({ owner: run.owner, repo: run.repo, run_id: run.runId });
  const head = data.head_repository?.full_name ?? '';
  const base = data.repository?.full_name ?? `${run.owner}/${run.repo}`;
  return head.toLowerCase() === base.toLowerCase() ? undefined : head || 'an unknown repository';
}

/**
 * Downloads one artifact, checks the zip against its digest before anything is
 * unpacked, then unpacks it into `path` writing at most `maxBytes` (verified-unzip.ts).
 */
export async function downloadChecked(where: ArtifactRun, artifact: ListedArtifact, path: string, maxBytes: number): Promise<VerifiedDownload> {
  const findBy =
    where.kind === 'current'
      ? undefined
      : { token: where.run.token, workflowRunId: where.run.runId, repositoryOwner: where.run.owner, repositoryName: where.run.repo };
  return downloadVerified(artifact.id, artifact.digest, path, maxBytes, findBy);
}
