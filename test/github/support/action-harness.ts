import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { Azurite } from '../artifacts/azurite.js';
import type { FakeGitHub } from '../fake-github.js';
import { actionDefaults, runBundledAction, type ActionRun, type RunOptions } from '../run-action.js';
import type { ArtifactFront } from './artifact-front.js';
import { startArtifactHarness, stopArtifactHarness, type ArtifactHarness } from './artifact-harness.js';

/** The job's GITHUB_TOKEN as the loopback GitHub sees it. */
export const TOKEN = 'ghs_loopbackTestToken000000000000000000';
export const REPOSITORY = 'octo-org/agent-app';
/** A pull_request "opened" event of pull request 42 (head 5f0c3c0…, base main at 9a8b7c6…). */
export const PR_EVENT = JSON.parse(readFileSync('test/github/fixtures/pull_request.opened.json', 'utf8')) as Record<string, unknown>;
/** A push to main (of commit `after`): the event part of a step. */
export function pushToMain(after = 'a'.repeat(40)): { eventName: string; event: unknown } {
  return { eventName: 'push', event: { ref: 'refs/heads/main', after } };
}

/** One step of the job: the workspace, the inputs beside action.yml's defaults, and whatever else differs from a pull request run. */
export type StepOptions = Partial<Omit<RunOptions, 'inputs' | 'runId'>> & { readonly workspace: string };

export interface ActionHarness extends ArtifactHarness {
  /**
   * dist/index.js as the runner runs it in run `runId` (uploads go to that run):
   * action.yml's defaults with `inputs` over them, the loopback GitHub's URLs,
   * and, unless `step` says otherwise, pull request 42's event.
   */
  run(runId: number, inputs: Record<string, string>, step: StepOptions): Promise<ActionRun>;
}

/**
 * The loopback GitHub (REST, Checks, artifact service, blobs in Azurite) for the
 * tests of this file that run the bundled Action: started before them and
 * stopped after them. Call it at the top of the file or of a describe.
 */
export function useActionHarness(): ActionHarness {
  let parts: Partial<ArtifactHarness> = {};
  beforeAll(async () => {
    parts = await startArtifactHarness();
  }, 60_000);
  afterAll(() => stopArtifactHarness(parts));
  const started = (): ArtifactHarness => {
    if (!parts.gh || !parts.azurite || !parts.front) throw new Error('the loopback GitHub is not started: useActionHarness() must be called at the top of the file or of a describe');
    return parts as ArtifactHarness;
  };
  return {
    get azurite(): Azurite {
      return started().azurite;
    },
    get gh(): FakeGitHub {
      return started().gh;
    },
    get front(): ArtifactFront {
      return started().front;
    },
    run(runId, inputs, step) {
      const { gh, front } = started();
      gh.currentRunId = runId;
      const eventName = step.eventName ?? 'pull_request';
      return runBundledAction({
        inputs: { ...actionDefaults(TOKEN), ...inputs },
        eventName,
        event: PR_EVENT,
        runId,
        apiUrl: front.url,
        resultsUrl: front.url,
        repository: REPOSITORY,
        workflowRef: `${REPOSITORY}/.github/workflows/agents.yml@${eventName === 'pull_request' ? 'refs/pull/42/merge' : 'refs/heads/main'}`,
        ...step,
      });
    },
  };
}
