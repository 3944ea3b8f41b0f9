import type { ActionRun } from '../run-action.js';
import { pushToMain, REPOSITORY, type ActionHarness } from './action-harness.js';

/**
 * The base branch's history for the comparison with several runs (`baseline-runs`): workflow
 * runs on main as the REST API lists them (newest first by id), each with its report artifact.
 */

/** Lists run `runId` as a completed run of the workflow on main, at commit `sha`. */
export function listOnMain(harness: ActionHarness, runId: number, sha: string): void {
  harness.gh.runs.push({ id: runId, head_branch: 'main', head_sha: sha, head_repository: { full_name: REPOSITORY } });
}

/**
 * One run of the workflow on main: the bundled Action on a push (no comment, no check run),
 * uploading its report artifact to run `runId`, which is then listed as a run on main.
 */
export async function runOnMain(harness: ActionHarness, runId: number, workspace: string, inputs: Record<string, string>, sha = 'a'.repeat(40)): Promise<ActionRun> {
  const run = await harness.run(runId, { comment: 'false', 'check-run': 'off', ...inputs }, { workspace, ...pushToMain(sha) });
  listOnMain(harness, runId, sha);
  return run;
}
