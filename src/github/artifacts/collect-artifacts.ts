import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { CollectSource } from '../../io/collect-sources.js';
import type { Logger } from '../../logger.js';
import { firstLine } from './artifact.js';
import { describeRun, downloadChecked, forkOf, listArtifacts, type ArtifactRun, type ListedArtifact } from './artifact-listing.js';
import type { ArtifactInputs } from './artifact-inputs.js';
import type { RunContext } from '../context.js';

const MIB = 1024 * 1024;

/** An artifact downloaded, digest-checked and unpacked: its folder is read whole. */
export interface ArtifactRead {
  readonly name: string;
  readonly id: number;
  readonly digest: string;
  readonly folder: string;
}

/**
 * The artifacts named by the `artifacts` globs, each downloaded into its own
 * folder under a fresh folder in the runner's temp dir (never the workspace)
 * and checked against the digest the artifact service recorded. Everything
 * that goes wrong with one artifact (no match, expired, over a cap, digest
 * mismatch, download error) is a warning naming it; the others are still read.
 */
export async function collectArtifacts(inputs: ArtifactInputs, token: string, ctx: RunContext, logger: Logger): Promise<ArtifactRead[]> {
  if (inputs.artifacts.length === 0) return [];
  const where = artifactRun(inputs, token, ctx);
  const runName = describeRun(where);
  const listed = await listTrusted(where, inputs, runName, logger);
  if (listed === null) return [];
  const selected = select(listed, inputs.artifacts, runName, logger);
  const chosen = withinCaps(selected, inputs, logger);
  if (chosen.length === 0) return [];

  const base = await mkdtemp(join(ctx.tempDir || tmpdir(), 'agent-trace-audit-artifacts-'));
  const read: ArtifactRead[] = [];
  let unpackedBytes = 0;
  for (const [index, artifact] of chosen.entries()) {
    const name = JSON.stringify(artifact.name);
    if (artifact.digest === '') {
      logger.warning(`refused artifact ${name}: the artifact service recorded no digest for it, so its download cannot be verified`);
      continue;
    }
    const folder = join(base, String(index + 1).padStart(4, '0'));
    try {
      await mkdir(folder);
      const bytes = await unpackChecked(where, artifact, folder, inputs.artifactsMaxMb * MIB - unpackedBytes, inputs, logger);
      if (bytes === null) continue;
      unpackedBytes += bytes;
      read.push({ name: artifact.name, id: artifact.id, digest: artifact.digest, folder });
      logger.info(`downloaded artifact ${name} (id ${artifact.id}, ${artifact.digest}) from ${runName}`);
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      logger.warning(`could not download artifact ${name} from ${runName}; its files are not audited: ${firstLine(error)}`);
    }
  }
  return read;
}

/** The artifacts of the run, or null (warned) when they cannot be listed or the run built a fork's code not allowed. */
async function listTrusted(where: ArtifactRun, inputs: ArtifactInputs, runName: string, logger: Logger): Promise<ListedArtifact[] | null> {
  if (where.kind === 'other') {
    try {
      const fork = await forkOf(where);
      if (fork !== undefined && !inputs.artifactsAllowFork) {
        logger.warning(`refused the artifacts of ${runName}: that run built code from the fork ${fork}, so its traces are not trusted. Set artifacts-allow-fork: true to audit them anyway.`);
        return null;
      }
    } catch (error) {
      logger.warning(`could not read ${runName} (the token needs actions: read there); no artifacts read: ${firstLine(error)}`);
      return null;
    }
  }
  try {
    return await listArtifacts(where);
  } catch (error) {
    logger.warning(`could not list the artifacts of ${runName}; no artifacts read: ${firstLine(error)}`);
    return null;
  }
}

/**
 * Downloads one artifact into its folder: the digest is checked on the zip before anything is unpacked,
 * and unpacking stops as soon as the artifacts read so far would pass artifacts-max-mb (a zip bomb).
 * Returns the bytes unpacked, or null when it was refused (warned, its folder removed).
 */
async function unpackChecked(where: ArtifactRun, artifact: ListedArtifact, folder: string, budget: number, inputs: ArtifactInputs, logger: Logger): Promise<number | null> {
  const name = JSON.stringify(artifact.name);
  const got = await downloadChecked(where, artifact, folder, budget);
  if (got.kind === 'digest-mismatch') {
    await rm(folder, { recursive: true, force: true });
    logger.warning(`refused artifact ${name}: the download does not match the digest ${artifact.digest} the artifact service recorded; nothing of it was unpacked or audited`);
    return null;
  }
  if (got.kind === 'not-unpacked') {
    await rm(folder, { recursive: true, force: true });
    const over = /more than \d+ bytes/.test(got.reason);
    logger.warning(
      over
        ? `refused artifact ${name}: it unpacks to more than ${mib(budget)} MiB, past artifacts-max-mb (${inputs.artifactsMaxMb} MiB unpacked in all); unpacking stopped there and none of its files are audited`
        : `refused artifact ${name}: ${got.reason}; its files are not audited`,
    );
    return null;
  }
  if (got.refused.length > 0) logger.warning(`artifact ${name}: ${got.refused.length} file(s) with a name that leaves the artifact's folder were not unpacked: ${namesOf(got.refused)}`);
  if (got.conflicts.length > 0) {
    logger.warning(`artifact ${name}: ${got.conflicts.length} zip entr${got.conflicts.length === 1 ? 'y was' : 'ies were'} skipped because the name is both a file and a folder in the zip, or names a file twice: ${namesOf(got.conflicts)}; the rest of the artifact is audited`);
  }
  return got.bytes;
}

/** The downloaded artifacts as collect sources: files shown as `<artifact name>/<path inside>`. */
export function artifactSources(read: readonly ArtifactRead[]): CollectSource[] {
  return read.map((a) => ({ root: a.folder, prefix: a.name }));
}

function artifactRun(inputs: ArtifactInputs, token: string, ctx: RunContext): ArtifactRun {
  const [owner = ctx.owner, repo = ctx.repo] = inputs.artifactsRepository === '' ? [] : inputs.artifactsRepository.split('/');
  const sameRepo = owner.toLowerCase() === ctx.owner.toLowerCase() && repo.toLowerCase() === ctx.repo.toLowerCase();
  const runId = inputs.artifactsRunId ?? ctx.runId;
  if (sameRepo && runId === ctx.runId) return { kind: 'current' };
  return { kind: 'other', run: { token, owner, repo, runId }, apiUrl: ctx.apiUrl };
}

/** Artifacts matching any glob, sorted by name; a glob matching nothing, and an expired match, are warnings. */
function select(listed: readonly ListedArtifact[], globs: readonly string[], runName: string, logger: Logger): ListedArtifact[] {
  const out = new Map<string, ListedArtifact>();
  for (const glob of globs) {
    const matches = listed.filter((a) => picomatch.isMatch(a.name, glob, { dot: true }));
    if (matches.length === 0) logger.warning(`no artifact of ${runName} matches ${JSON.stringify(glob)}`);
    for (const artifact of matches) out.set(artifact.name, artifact);
  }
  const sorted = [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const artifact of sorted.filter((a) => a.expired)) {
    logger.warning(`artifact ${JSON.stringify(artifact.name)} of ${runName} has expired (past its retention period); its files are not audited`);
  }
  return sorted.filter((a) => !a.expired);
}

/** At most artifacts-max-count artifacts (by name) whose listed sizes fit artifacts-max-mb; the rest are named in a warning. */
function withinCaps(selected: readonly ListedArtifact[], inputs: ArtifactInputs, logger: Logger): ListedArtifact[] {
  const max = inputs.artifactsMaxCount;
  if (selected.length > max) {
    const left = selected.slice(max).map((a) => JSON.stringify(a.name));
    logger.warning(`${selected.length} artifacts match; only the first ${max} by name are read (artifacts-max-count: ${max}). Not read: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ` and ${left.length - 10} more` : ''}`);
  }
  const chosen: ListedArtifact[] = [];
  let bytes = 0;
  for (const artifact of selected.slice(0, max)) {
    if (bytes + artifact.size > inputs.artifactsMaxMb * MIB) {
      logger.warning(`artifact ${JSON.stringify(artifact.name)} (${mib(artifact.size)} MiB) is not read: the artifacts would pass artifacts-max-mb (${inputs.artifactsMaxMb} MiB in all)`);
      continue;
    }
    bytes += artifact.size;
    chosen.push(artifact);
  }
  return chosen;
}

/** The first five names, quoted (the logger sanitizes them). */
function namesOf(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => JSON.stringify(n)).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}
