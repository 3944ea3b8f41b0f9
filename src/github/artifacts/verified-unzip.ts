import { DefaultArtifactClient, type FindOptions } from '@actions/artifact';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipCapped } from './unzip-capped.js';

/** What became of one artifact download. */
export type VerifiedDownload =
  /** `refused`: names that leave the folder; `conflicts`: file entries whose name is also a folder, or named twice. */
  | { readonly kind: 'unpacked'; readonly files: number; readonly bytes: number; readonly refused: readonly string[]; readonly conflicts: readonly string[] }
  /** The zip does not match its recorded digest: nothing of it was unpacked. */
  | { readonly kind: 'digest-mismatch' }
  /** The zip matched but was not unpacked whole (over the byte cap, unreadable); `dest` may hold part of it. */
  | { readonly kind: 'not-unpacked'; readonly reason: string };

/**
 * Downloads an artifact's zip as it is (not unpacked), checks it against the digest
 * the artifact service recorded, and only then unpacks it into `dest` with a cap of
 * `maxBytes` on what is written. The zip itself is kept in a folder beside `dest`
 * and removed before this returns.
 */
export async function downloadVerified(artifactId: number, expectedHash: string, dest: string, maxBytes: number, findBy?: FindOptions['findBy']): Promise<VerifiedDownload> {
  const zipDir = `${dest}.zip`;
  await mkdir(zipDir, { recursive: true });
  try {
    const client = new DefaultArtifactClient();
    const response = await client.downloadArtifact(artifactId, { path: zipDir, expectedHash, skipDecompress: true, ...(findBy ? { findBy } : {}) });
    if (response.digestMismatch) return { kind: 'digest-mismatch' };
    const [zip] = await readdir(zipDir);
    if (zip === undefined) return { kind: 'not-unpacked', reason: 'the download is empty' };
    await mkdir(dest, { recursive: true });
    const outcome = await unzipCapped(join(zipDir, zip), dest, maxBytes);
    return outcome.ok ? { kind: 'unpacked', files: outcome.files, bytes: outcome.bytes, refused: outcome.refused, conflicts: outcome.conflicts } : { kind: 'not-unpacked', reason: outcome.reason };
  } finally {
    await rm(zipDir, { recursive: true, force: true });
  }
}
