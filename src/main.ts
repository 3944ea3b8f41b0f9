import * as core from '@actions/core';
import { describeError } from './errors.js';
import { runAction, type ActionDeps } from './action/action.js';
import { poolMinBytesFromEnv } from './audit/engine/pool-plan.js';
import { guardCommands } from './github/command-guard.js';
import { readContext } from './github/context.js';
import { readInputs } from './github/inputs.js';
import { isPostStep, markMainStep, startListening, stopForgottenReceiver } from './action/receiver-step.js';
import type { SealFile } from './action/seal-step.js';
import { limitHeapGrowth } from './heap-growth.js';
import { DEFAULT_LIMITS } from './io/limits.js';
import type { Logger } from './logger.js';
import { sealToFolder } from './seal/index.js';

const actionsLogger: Logger = {
  info: (message) => core.info(guardCommands(message)),
  warning: (message, where) => core.warning(message, where ? { file: where.file, startLine: where.line } : undefined),
  error: (message) => core.error(message),
  debug: (message) => core.debug(message),
};

/** Each collected trace is sealed (chain + checkpoint) into the artifact folder; GITHUB_* provenance goes into the checkpoint. */
const sealFile: SealFile = (path, outDir, display, options) => sealToFolder(path, outDir, DEFAULT_LIMITS, process.env, display, options);

/** The Action: inputs → config → core → outputs. Nothing here decides what a finding is. */
export async function run(workerEntry: URL | null = null): Promise<void> {
  try {
    if (isPostStep()) return await stopForgottenReceiver(actionsLogger);
    markMainStep();
    limitHeapGrowth(process.env);
    const inputs = readInputs();
    if (inputs.mode === 'listen') return await startListening(inputs.listenPort, readContext(), workerEntry, actionsLogger);
    const poolMinBytes = poolMinBytesFromEnv(process.env);
    const deps: ActionDeps = { logger: actionsLogger, setOutput: (name, value) => core.setOutput(name, value), sealFile, workerEntry, ...(poolMinBytes !== undefined ? { poolMinBytes } : {}) };
    const failure = await runAction(inputs, readContext(), deps);
    if (failure) core.setFailed(failure);
  } catch (error) {
    core.setFailed(describeError(error, core.isDebug()));
  }
}
