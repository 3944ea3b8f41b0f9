import { DefaultArtifactClient, type Artifact } from '@actions/artifact';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Logger } from '../../logger.js';
import { NAMES_FILE, withSafeNames } from './artifact-safe-names.js';
import { downloadVerified } from './verified-unzip.js';

export interface UploadResult {
  readonly id: number;
  readonly digest: string;
  readonly url: string;
}

/**
 * Uploads every file under `root` as one artifact. A failure (quota, no
 * runtime token outside Actions) is a warning and returns undefined: a
 * reporting problem never fails the job.
 */
export async function uploadFolder(
  name: string,
  root: string,
  retentionDays: number | undefined,
  runUrl: string,
  logger: Logger,
): Promise<UploadResult | undefined> {
  try {
    const { files, renamed } = await withSafeNames(root, await listFiles(root));
    if (renamed.length > 0) logger.info(`${renamed.length} file(s) stored under a safe name (a character the artifact service refuses); ${NAMES_FILE} maps them back`);
    const client = new DefaultArtifactClient();
    const result = await client.uploadArtifact(name, files, root, retentionDays === undefined ? {} : { retentionDays });
    if (result.id === undefined) throw new Error('the artifact service returned no id');
    return { id: result.id, digest: result.digest ? `sha256:${result.digest}` : '', url: `${runUrl}/artifacts/${result.id}` };
  } catch (error) {
    logger.warning(`agent-trace-audit could not upload the artifact ${JSON.stringify(name)}: ${firstLine(error)}`);
    return undefined;
  }
}

/** Most bytes a downloaded report artifact (baseline, shard, publish) may unpack to. */
const REPORT_ARTIFACT_MAX_BYTES = 1024 * 1024 * 1024;

export interface RemoteRun {
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly runId: number;
}

/** The artifacts of a run (any repository the token can read), through the REST API. */
export async function listRunArtifacts(run: RemoteRun): Promise<Artifact[]> {
  const client = new DefaultArtifactClient();
  const listed = await client.listArtifacts({
    latest: true,
    findBy: { token: run.token, workflowRunId: run.runId, repositoryOwner: run.owner, repositoryName: run.repo },
  });
  return listed.artifacts;
}

/**
 * Downloads one artifact into a fresh folder under the runner's temp dir (never
 * the workspace), checks its digest, hands the folder to `use`, and removes the
 * folder when `use` is done, or when the download or the check fails (so bytes
 * that did not match their digest are not left on disk). Throws when the digest
 * is missing or does not match: the caller decides whether that is a warning.
 */
export async function withVerifiedDownload<T>(run: RemoteRun, artifact: Artifact, tempRoot: string, use: (folder: string) => Promise<T>): Promise<T> {
  if (!artifact.digest) throw new Error(`artifact ${JSON.stringify(artifact.name)} has no digest to verify`);
  const path = await mkdtemp(join(tempRoot || tmpdir(), 'ata-download-'));
  try {
    // The zip is checked before anything is unpacked, and unpacking is capped (a report artifact from a fork is data too).
    const findBy = { token: run.token, workflowRunId: run.runId, repositoryOwner: run.owner, repositoryName: run.repo };
    const got = await downloadVerified(artifact.id, artifact.digest, join(path, 'files'), REPORT_ARTIFACT_MAX_BYTES, findBy);
    if (got.kind === 'digest-mismatch') throw new Error(`artifact ${JSON.stringify(artifact.name)} does not match its digest ${artifact.digest}`);
    if (got.kind === 'not-unpacked') throw new Error(`artifact ${JSON.stringify(artifact.name)} was not unpacked: ${got.reason}`);
    return await use(join(path, 'files'));
  } finally {
    await rm(path, { recursive: true, force: true });
  }
}

/** Reads a file of a downloaded artifact, refusing anything larger than `maxBytes`. */
export async function readCapped(path: string, maxBytes: number): Promise<string> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`${JSON.stringify(path)} is not a regular file`);
  if (info.size > maxBytes) throw new Error(`${JSON.stringify(path)} is ${info.size} bytes, over the ${maxBytes}-byte cap`);
  return readFile(path, 'utf8');
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) out.push(path);
    }
  };
  await walk(root);
  if (out.length === 0) throw new Error(`nothing to upload in ${relative(process.cwd(), root).split(sep).join('/')}`);
  return out;
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
