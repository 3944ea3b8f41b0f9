import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { startReceiver } from '../../receiver/server.js';
import { describeStats, lostAny } from '../../receiver/stats.js';
import { sanitizeText } from '../../sanitize/text.js';
import type { CommandSpec, ParsedArgs } from '../command.js';
import type { CliIO } from '../io.js';
import { receiverFlags, receiverLimits } from './receiver-flags.js';

const DEFAULT_SPOOL = 'otlp-spans.jsonl';

export const RECEIVE: CommandSpec = {
  name: 'receive',
  summary: 'run the OTLP/HTTP trace receiver alone on 127.0.0.1 until SIGINT or SIGTERM',
  args: '',
  details: [
    'Spans exported to <endpoint>/v1/traces (protobuf or JSON) are written as OTLP JSON lines to --out,',
    "which 'agent-trace-audit audit' reads afterwards. Exit code: 0 once stopped, 2 usage error or port in use.",
  ],
  flags: [
    ...receiverFlags(DEFAULT_SPOOL),
    { name: 'state', type: 'string', value: 'file', default: 'none', description: 'write {pid, port, endpoint, spool} as JSON here once listening, and again with the counts once stopped' },
  ],
  examples: ['agent-trace-audit receive --port 4318 --out spans.jsonl --state receiver.json'],
  run: receiveCommand,
};

/**
 * `receive`: the OTLP receiver alone, until stopped. `--state` names a JSON file
 * written once listening ({pid, port, endpoint, spool}) and again once stopped
 * (with `stopped` and the counts): the Action's listen and audit steps use it.
 */
async function receiveCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError('receive takes no files');
  const limits = receiverLimits(args);
  const out = args.string('out') ?? DEFAULT_SPOOL;
  const spoolPath = resolve(io.cwd, out);
  const stateFlag = args.string('state');
  const statePath = stateFlag === undefined ? undefined : resolve(io.cwd, stateFlag);
  const receiver = await startReceiver({ ...limits, spoolPath, onProblem: (message) => io.stderr(`warning: ${sanitizeText(message)}\n`) });
  const state = { pid: process.pid, port: receiver.port, endpoint: receiver.endpoint, spool: spoolPath };
  if (statePath) await writeState(statePath, state);
  io.stderr(`receiving OTLP traces on ${receiver.endpoint}/v1/traces, writing ${sanitizeText(out)}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  const stats = await receiver.stop();
  if (statePath) await writeState(statePath, { ...state, stopped: true, stats });
  io.stderr(`${lostAny(stats) ? 'warning: ' : ''}${describeStats(stats)}\n`);
  return 0;
}

/** Whole or not at all: a reader polling the file never sees half of it. */
async function writeState(path: string, state: object): Promise<void> {
  await writeFile(`${path}.tmp`, `${JSON.stringify(state)}\n`);
  await rename(`${path}.tmp`, path);
}
