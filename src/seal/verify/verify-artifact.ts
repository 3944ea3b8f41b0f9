import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isUserError } from '../../errors.js';
import { confine, realFolder, type Confinement } from '../../io/confine.js';
import type { ReadLimits } from '../../io/limits.js';
import type { Checkpoint } from '../checkpoint.js';
import { isSealedEntry, readManifest, sealDigestOf, type SealedEntry } from '../manifest.js';
import { redactToFile } from '../redact/redact-file.js';
import type { Verdict } from './verdict.js';
import { readCheckpoint, verifyFile } from './verify-file.js';

/** What one file of the manifest came to. */
export interface ArtifactFile {
  readonly file: string;
  /** A verdict status, `missing` (a sealed or checkpoint file the manifest names is not there), or `not-sealed` (the Action could not seal it). */
  readonly status: Verdict['status'] | 'missing' | 'not-sealed';
  /** What went wrong, or what was found (records, kind); one line. */
  readonly detail: string;
  readonly brokenAt: number | null;
  readonly receipts: number;
  /** With --sources: whether the original trace matches the checkpoint's source_sha256 (`refused`: the workspace rule refused its path). */
  readonly source: 'matches' | 'differs' | 'missing' | 'refused' | null;
  /** Why the source was refused (`refused: a symlink that leaves the --sources folder`, …). */
  readonly sourceRefused?: string;
}

export interface ArtifactCheck {
  readonly files: ArtifactFile[];
  /** Recomputed from the manifest (the verified files' final digests and names). */
  readonly sealDigest: string;
  /** Whether it equals --seal-digest; null when none was given. */
  readonly digestMatches: boolean | null;
  readonly ok: boolean;
}

export interface ArtifactOptions {
  readonly sealDigest: string | null;
  /** Folder holding the original traces under their manifest names (its real path: the caller confined it). */
  readonly sources: string | null;
  readonly limits: ReadLimits;
}

/**
 * Verifies every file `seal-manifest.json` lists (each sealed file against its
 * checkpoint; the manifest's final digest against both), recomputes the seal
 * digest and, when asked, compares it with the run's and each original trace
 * with its checkpoint's source_sha256. Every file is read under the workspace rule
 * (src/io/confine.ts) with the artifact's folder (or --sources) as its root: a name that
 * leads out of it (`..`, an absolute path, a symlink), into `.git`, or to something that is
 * not a regular file is refused and counts as missing. Reading problems of the manifest
 * itself are InputErrors (exit 2); everything about a listed file is its line.
 */
export async function verifyArtifact(manifestPath: string, display: string, options: ArtifactOptions): Promise<ArtifactCheck> {
  const root: Confinement = { root: realFolder(dirname(resolve(manifestPath))), rootName: 'the artifact' };
  const manifest = await readManifest(manifestPath, display, root);
  const files: ArtifactFile[] = [];
  for (const entry of manifest.files) {
    if (!isSealedEntry(entry)) {
      files.push({ file: entry.file, status: 'not-sealed', detail: `the Action could not seal it: ${entry.error}`, brokenAt: null, receipts: 0, source: null });
      continue;
    }
    files.push(await verifyEntry(root, entry, options));
  }
  const sealDigest = sealDigestOf(manifest.files.filter(isSealedEntry));
  const wanted = options.sealDigest === null ? null : options.sealDigest.startsWith('sha256:') ? options.sealDigest : `sha256:${options.sealDigest}`;
  const digestMatches = wanted === null ? null : wanted === sealDigest;
  const ok = files.every((f) => (f.status === 'intact' || f.status === 'not-sealed') && f.source !== 'differs' && f.source !== 'missing' && f.source !== 'refused') && digestMatches !== false;
  return { files, sealDigest, digestMatches, ok };
}

async function verifyEntry(artifact: Confinement, entry: SealedEntry, options: ArtifactOptions): Promise<ArtifactFile> {
  const base = { file: entry.file, brokenAt: null, receipts: 0, source: null };
  const real: string[] = [];
  for (const name of [entry.sealed, entry.checkpoint]) {
    const verdict = confine(resolve(artifact.root!, name), artifact, 'file');
    if (verdict.refused === undefined) real.push(verdict.real);
    else return { ...base, status: 'missing', detail: verdict.missing ? `${name} is not in the artifact` : `${name}: ${verdict.refused}` };
  }
  const [sealedPath, checkpointPath] = real as [string, string];
  let checkpoint: Checkpoint;
  let verdict: Verdict;
  try {
    checkpoint = await readCheckpoint(checkpointPath, entry.checkpoint, artifact);
    verdict = await verifyFile(sealedPath, entry.sealed, checkpoint, options.limits);
  } catch (error) {
    if (!isUserError(error)) throw error;
    return { ...base, status: 'swapped', detail: error.message.split('\n')[0]! };
  }
  const receipts = checkpoint.redactions?.length ?? 0;
  const found = options.sources === null ? null : await sourceMatches(options.sources, entry.file, checkpoint, options.limits);
  const source = found === null || typeof found === 'string' ? found : 'refused';
  const refusedWhy = found !== null && typeof found === 'object' ? { sourceRefused: found.refused } : {};
  const kind = checkpoint.kind === 'bytes' ? 'bytes' : `${checkpoint.canonical} records`;
  if (verdict.status === 'intact' && checkpoint.final_digest !== entry.finalDigest) {
    return { ...base, status: 'swapped', detail: "the manifest's final digest is not the checkpoint's", receipts, source, ...refusedWhy };
  }
  const detail = verdict.status === 'intact' ? `${checkpoint.records} link(s), ${kind}` : (verdict.broken?.reason ?? verdict.reason ?? `${checkpoint.records} link(s) expected, ${verdict.chain.intact} intact`);
  return { file: entry.file, status: verdict.status, detail, brokenAt: verdict.broken?.index ?? null, receipts, source, ...refusedWhy };
}

/**
 * Whether the original trace under `sources` hashes to the checkpoint's
 * source_sha256: its bytes, or, for a seal made redacted, the bytes the same
 * redaction makes of it.
 */
async function sourceMatches(sources: string, file: string, checkpoint: Checkpoint, limits: ReadLimits): Promise<'matches' | 'differs' | 'missing' | { readonly refused: string }> {
  const verdict = confine(resolve(sources, file), { root: sources, rootName: 'the --sources folder' }, 'file');
  if (verdict.refused !== undefined) return verdict.missing ? 'missing' : { refused: verdict.refused };
  const path = verdict.real;
  if (!checkpoint.redactions) return (await sha256File(path)) === checkpoint.source_sha256 ? 'matches' : 'differs';
  const work = await mkdtemp(join(tmpdir(), 'ata-verify-'));
  try {
    const redacted = await redactToFile(path, file, join(work, 'redacted'), limits);
    return (await sha256File(redacted.path)) === checkpoint.source_sha256 ? 'matches' : 'differs';
  } catch (error) {
    if (isUserError(error)) return 'differs';
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
