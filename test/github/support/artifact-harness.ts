import { existsSync } from 'node:fs';
import { Azurite } from '../artifacts/azurite.js';
import { FakeGitHub } from '../fake-github.js';
import { ArtifactFront } from './artifact-front.js';

/** The loopback GitHub the bundled Action talks to: Azurite blobs, the fake REST API, and the artifact service in front of them. */
export interface ArtifactHarness {
  readonly azurite: Azurite;
  readonly gh: FakeGitHub;
  readonly front: ArtifactFront;
}

/** Starts the harness for tests that run dist/index.js (built by `npm run build`, which `npm test` runs first). */
export async function startArtifactHarness(): Promise<ArtifactHarness> {
  if (!existsSync('dist/index.js')) throw new Error('dist/index.js is missing: run `npm run build` (npm test does)');
  const azurite = await Azurite.start();
  const gh = new FakeGitHub(azurite);
  await gh.start();
  const front = new ArtifactFront(gh, azurite);
  await front.start();
  return { azurite, gh, front };
}

/** Stops what startArtifactHarness started (any part of it that did start). */
export async function stopArtifactHarness(harness: Partial<ArtifactHarness>): Promise<void> {
  await harness.front?.stop();
  await harness.gh?.stop();
  await harness.azurite?.stop();
}
