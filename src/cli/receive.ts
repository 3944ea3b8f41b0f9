import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { describeStats, startReceiver } from '../receiver/server.js';
import { sanitizeText } from '../sanitize/text.js';
import { parseFlags, type CliIO } from './io.js';
import { RECEIVER_FLAGS, RECEIVER_FLAGS_USAGE, receiverLimits } from './receiver-flags.js';

export const RECEIVE_USAGE = `usage: agent-trace-audit receive ${RECEIVER_FLAGS_USAGE} [--state file]
       (OTLP/HTTP on 127.0.0.1 until SIGINT or SIGTERM; spans written as OTLP JSON lines to --out, default otlp-spans.jsonl)`;

/**
 * `receive`: the OTLP receiver alone, until stopped. `--state` names a JSON file
 * written once listening ({pid, port, endpoint, spool}) and again once stopped
 * (with `stopped` and the counts): the Action's listen and audit steps use it.
 */
export async function receiveCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(args, { ...RECEIVER_FLAGS, state: { type: 'string' }, debug: { type: 'boolean' } }, RECEIVE_USAGE);
  if (positionals.length > 0) throw new UsageError(`receive takes no files\n${RECEIVE_USAGE}`);
  const limits = receiverLimits(values);
  const spoolPath = resolve(io.cwd, values.out ?? 'otlp-spans.jsonl');
  const statePath = values.state === undefined ? undefined : resolve(io.cwd, values.state);
  const receiver = await startReceiver({ ...limits, spoolPath, onProblem: (message) => io.stderr(`warning: ${sanitizeText(message)}\n`) });
  const state = { pid: process.pid, port: receiver.port, endpoint: receiver.endpoint, spool: spoolPath };
  if (statePath) await writeState(statePath, state);
  io.stderr(`receiving OTLP traces on ${receiver.endpoint}/v1/traces, writing ${values.out ?? 'otlp-spans.jsonl'}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  const stats = await receiver.stop();
  if (statePath) await writeState(statePath, { ...state, stopped: true, stats });
  io.stderr(`${describeStats(stats)}\n`);
  return 0;
}

/** Whole or not at all: a reader polling the file never sees half of it. */
async function writeState(path: string, state: object): Promise<void> {
  await writeFile(`${path}.tmp`, `${JSON.stringify(state)}\n`);
  await rename(`${path}.tmp`, path);
}
