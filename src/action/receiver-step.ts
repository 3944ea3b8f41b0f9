import * as core from '@actions/core';
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError, UserError } from '../errors.js';
import type { CollectSource } from '../io/collect-sources.js';
import type { Logger } from '../logger.js';
import { otlpEnvironment, protocolFor } from '../receiver/endpoint-env.js';
import { describeStats, lossNotes, lostAny } from '../receiver/stats.js';
import { isAlive, readReceiverState, stopReceiver, waitFor } from '../receiver/state-file.js';
import { sanitizeText } from '../sanitize/text.js';
import type { RunContext } from '../github/context.js';

/** Carries the receiver's state file from the listen step to later steps (through GITHUB_ENV). */
export const RECEIVER_ENV = 'AGENT_TRACE_AUDIT_RECEIVER';
/** The listen step's own state (GITHUB_STATE), read by its post step. */
const POST_STATE = 'receiverState';
/** The received spans are shown in the report as `otlp-receiver/otlp-spans.jsonl`. */
export const RECEIVED_PREFIX = 'otlp-receiver';
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * mode: listen. Starts `cli.js receive` (beside the running bundle) detached, waits
 * until it listens, and exports the OTLP endpoint variables to the later steps.
 */
export async function startListening(port: string, ctx: RunContext, bundle: URL | null, logger: Logger): Promise<void> {
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535) throw new ConfigurationError(`input listen-port must be a port number (0 to 65535), not ${JSON.stringify(port)}`, 'input');
  if (process.env[RECEIVER_ENV] && existsSync(process.env[RECEIVER_ENV]!)) {
    const running = await readReceiverState(process.env[RECEIVER_ENV]!);
    if (running && !running.stopped && isAlive(running.pid)) throw new UserError('receiver-running', `a receiver started by an earlier listen step is still running on ${running.endpoint}; audit before listening again`);
  }
  const cli = fileURLToPath(new URL('./cli.js', bundle ?? import.meta.url));
  if (!existsSync(cli)) throw new Error(`the CLI bundle is missing beside the Action (${cli})`);
  const dir = await mkdtemp(join(ctx.tempDir || tmpdir(), 'agent-trace-audit-otlp-'));
  const spoolDir = join(dir, 'spool');
  await mkdir(spoolDir);
  const statePath = join(dir, 'receiver.json');
  const logPath = join(dir, 'receiver.log');
  const log = openSync(logPath, 'a');
  try {
    const args = [cli, 'receive', '--port', port, '--out', join(spoolDir, 'otlp-spans.jsonl'), '--state', statePath];
    // The receiver needs none of the step's inputs or tokens.
    const env = Object.fromEntries(['PATH', 'HOME', 'TMPDIR', 'LANG'].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
    const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], cwd: dir, env });
    child.unref();
    let exited = false;
    child.once('exit', () => (exited = true));
    const state = await waitFor(async () => (exited ? ('exited' as const) : await readReceiverState(statePath)), START_TIMEOUT_MS);
    if (state === null || state === 'exited') {
      if (state === null && child.pid !== undefined && isAlive(child.pid)) process.kill(child.pid, 'SIGKILL');
      const said = (await readFile(logPath, 'utf8').catch(() => '')).split('\n').find((line) => line.trim() !== '') ?? 'no message';
      throw new UserError('receiver-not-started', `the OTLP receiver did not start: ${sanitizeText(said)}`);
    }
    for (const [name, value] of Object.entries({ ...otlpEnvironment(state.endpoint, protocolFor(process.env)), [RECEIVER_ENV]: statePath })) core.exportVariable(name, value);
    core.saveState(POST_STATE, statePath);
    core.setOutput('otlp-endpoint', state.endpoint);
    logger.info(`receiving OTLP traces on ${state.endpoint}/v1/traces (pid ${state.pid}) until the audit step; later steps have OTEL_EXPORTER_OTLP_ENDPOINT`);
  } finally {
    closeSync(log);
  }
}

/**
 * mode: audit. Stops the receiver a listen step started (if any), once it has
 * written every span it acknowledged, and returns its spool folder to audit.
 */
export async function receivedSources(logger: Logger): Promise<CollectSource[]> {
  const statePath = process.env[RECEIVER_ENV];
  if (!statePath) return [];
  const state = await stopReceiver(statePath, STOP_TIMEOUT_MS);
  if (state === null) {
    logger.warning('the OTLP receiver of the listen step did not stop cleanly; the spans it wrote are audited, any still in flight are not');
    const before = await readReceiverState(statePath);
    return before ? [{ root: dirname(before.spool), prefix: RECEIVED_PREFIX }] : [];
  }
  const stats = state.stats;
  const line = stats ? describeStats(stats) : 'the receiver stopped';
  if (stats && lostAny(stats)) logger.warning(`OTLP receiver: ${line}`);
  else logger.info(`OTLP receiver: ${line}`);
  return [{ root: dirname(state.spool), prefix: RECEIVED_PREFIX, ...(stats ? { notes: lossNotes(stats) } : {}) }];
}

/** The post step of a listen step: a receiver no audit step stopped is stopped now (no orphan process). */
export async function stopForgottenReceiver(logger: Logger): Promise<void> {
  const statePath = core.getState(POST_STATE);
  if (!statePath) return;
  const state = await readReceiverState(statePath);
  if (state === null || state.stopped || !isAlive(state.pid)) return;
  const stopped = await stopReceiver(statePath, STOP_TIMEOUT_MS);
  const took = stopped?.stats ? `; it had ${describeStats(stopped.stats)}, never audited` : '';
  logger.warning(`stopped the OTLP receiver of the listen step: no audit step stopped it${took}`);
}

/** True in the post step (the main step saved the marker). */
export function isPostStep(): boolean {
  return core.getState('isPost') === 'true';
}

/**
 * Marks this as the main step, so the runner's post run of it (action.yml `post:`) knows
 * itself. Written to GITHUB_STATE, which every runner that runs node24 sets; without it
 * (a harness, an old runner) nothing is written and no workflow command is printed.
 */
export function markMainStep(): void {
  if (process.env['GITHUB_STATE']) core.saveState('isPost', 'true');
}
