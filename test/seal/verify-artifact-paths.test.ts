import { copyFileSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sealInputs, type SealFile } from '../../src/action/seal-step.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import type { Logger } from '../../src/logger.js';
import { sealToFolder } from '../../src/seal/index.js';
import { verifyArtifact } from '../../src/seal/verify/verify-artifact.js';
import { jsonl, tempDir, tempTree } from '../helpers.js';

const silent: Logger = { info: () => undefined, warning: () => undefined, error: () => undefined, debug: () => undefined };
const sealFile: SealFile = (path, outDir, display, options) => sealToFolder(path, outDir, DEFAULT_LIMITS, {}, display, options);
const TRACE = jsonl({ kind: 'tool_call', run_id: 'r', call_id: 'c', tool: 't', args: {} });

/** A workspace with one trace, the artifact folder the Action's seal step makes of it, and its manifest entry. */
async function artifact() {
  const workspace = tempTree({ 'a.jsonl': TRACE, '.git/a.jsonl': TRACE });
  const out = tempDir('ata-artifact-');
  const summary = await sealInputs([{ path: join(workspace, 'a.jsonl'), display: 'a.jsonl' }], out, sealFile, silent, false);
  const manifest = JSON.parse(readFileSync(join(out, 'seal-manifest.json'), 'utf8')) as { files: Array<{ sealed: string; checkpoint: string }> };
  return { workspace, out, digest: summary.digest, entry: manifest.files[0]! };
}

const options = (sources: string | null = null) => ({ sealDigest: null, sources, limits: DEFAULT_LIMITS });

describe('verify <artifact> reads every file under the workspace rule (src/io/confine.ts), the artifact folder its root', () => {
  it('an intact artifact verifies; the same sealed file behind a symlink that leaves the artifact is refused, not read', async () => {
    const { out, entry, digest } = await artifact();
    expect((await verifyArtifact(join(out, 'seal-manifest.json'), 'seal-manifest.json', { ...options(), sealDigest: digest })).ok).toBe(true);
    // The very same bytes, moved outside and linked back: refused all the same (what is read must be the artifact's).
    const outside = tempDir('ata-outside-');
    renameSync(join(out, entry.sealed), join(outside, 'sealed.jsonl'));
    symlinkSync(join(outside, 'sealed.jsonl'), join(out, entry.sealed));
    const check = await verifyArtifact(join(out, 'seal-manifest.json'), 'seal-manifest.json', options());
    expect(check.files.map((f) => [f.status, f.detail])).toEqual([['missing', `${entry.sealed}: refused: a symlink that leaves the artifact`]]);
    expect(check.ok).toBe(false);
  });

  it('a manifest naming ../ or an absolute path, or a folder symlink to /proc on the way: refused with the reason, never read', async () => {
    const { out, entry } = await artifact();
    const outside = tempDir('ata-outside-');
    copyFileSync(join(out, entry.sealed), join(outside, 'x.sealed.jsonl'));
    symlinkSync('/proc/self', join(out, 'proc'));
    const names = [`../${outside.split('/').pop()!}/x.sealed.jsonl`, join(outside, 'x.sealed.jsonl'), 'proc/environ'];
    const manifestPath = join(out, 'seal-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: Array<Record<string, unknown>> };
    manifest.files = names.map((sealed) => ({ ...manifest.files[0], file: sealed, sealed }));
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const check = await verifyArtifact(manifestPath, 'seal-manifest.json', options());
    expect(check.files.map((f) => f.detail)).toEqual([`${names[0]}: refused: outside the artifact`, `${names[1]}: refused: outside the artifact`, 'proc/environ: refused: a symlink that leaves the artifact']);
  });

  it('the manifest itself behind a symlink to a device or out of its folder is a refused input (exit 2), read not a byte', async () => {
    const { out } = await artifact();
    rmSync(join(out, 'seal-manifest.json'));
    symlinkSync('/dev/zero', join(out, 'seal-manifest.json'));
    await expect(verifyArtifact(join(out, 'seal-manifest.json'), 'seal-manifest.json', options())).rejects.toThrow('seal-manifest.json: a symlink that leaves the artifact');
  });

  it('--sources: a source behind a symlink out of the folder or into .git is refused, one that is there matches', async () => {
    const { workspace, out } = await artifact();
    expect((await verifyArtifact(join(out, 'seal-manifest.json'), 'm', options(workspace))).files[0]!.source).toBe('matches');
    const outside = tempTree({ 'a.jsonl': TRACE });
    for (const [target, reason] of [
      [join(outside, 'a.jsonl'), 'refused: a symlink that leaves the --sources folder'],
      ['.git/a.jsonl', 'refused: a symlink into .git'],
    ] as const) {
      rmSync(join(workspace, 'a.jsonl'));
      symlinkSync(target, join(workspace, 'a.jsonl'));
      const check = await verifyArtifact(join(out, 'seal-manifest.json'), 'm', options(workspace));
      expect([check.files[0]!.source, check.files[0]!.sourceRefused, check.ok]).toEqual(['refused', reason, false]);
    }
  });
});
