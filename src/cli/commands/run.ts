import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError, UserError } from '../../errors.js';
import { otlpEnvironment, protocolFor } from '../../receiver/endpoint-env.js';
import { startReceiver } from '../../receiver/server.js';
import { describeStats, lossNotes, lostAny } from '../../receiver/stats.js';
import { sanitizeText } from '../../sanitize/text.js';
import { AUDIT, auditCommand } from './audit.js';
import type { CommandSpec, ParsedArgs } from '../command.js';
import type { CliIO } from '../io.js';
import { receiverFlags, receiverLimits } from './receiver-flags.js';

/** The spool's name in the report when --out is not given: `otlp-receiver/otlp-spans.jsonl`. */
export const SPOOL_PREFIX = 'otlp-receiver';
const SPOOL_FILE = 'otlp-spans.jsonl';

export const RUN: CommandSpec = {
  name: 'run',
  summary: 'run a command with its OpenTelemetry exporter pointed at a receiver here, then audit what it exported',
  args: '[trace files...] -- <command> [args...]',
  details: [
    'The flags go before --; everything after it is the command line, run as given (no shell).',
    'The command runs with OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and',
    'OTEL_EXPORTER_OTLP_PROTOCOL set to an OTLP/HTTP receiver on 127.0.0.1 (protobuf or JSON).',
    'Once it exits, the spans it exported are audited with any trace files named, through `audit`:',
    'the audit flags below are those of `audit`. Without --out the spool is reported as',
    `${SPOOL_PREFIX}/${SPOOL_FILE}.`,
    "Exit codes: the audit's (0, 1, 2); else the command's when it failed; 127 when it was not found, 126 when it could not start.",
  ],
  flags: [...receiverFlags('a temporary folder, removed after the audit'), ...AUDIT.flags],
  examples: ['agent-trace-audit run --fail-on warning -- npm test', 'agent-trace-audit run --port 0 --format sarif -o audit.sarif -- python -m pytest'],
  run: runCommand,
};

/**
 * `run`: receiver up, command run with the OTLP variables, receiver stopped once
 * the command exits (every acknowledged span is in the spool by then), then the
 * spool audited together with any trace files named, through `audit` itself.
 */
async function runCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const line = args.afterTerminator;
  if (line === null || line.length === 0) throw new UsageError('run needs a command after --');
  const [command, ...commandArgs] = line as [string, ...string[]];
  const files = args.positionals.slice(0, args.positionals.length - line.length);
  const limits = receiverLimits(args);
  const out = args.string('out');
  const spoolDir = out === undefined ? await mkdtemp(join(tmpdir(), 'agent-trace-audit-otlp-')) : null;
  const spoolPath = spoolDir ? join(spoolDir, SPOOL_FILE) : resolve(io.cwd, out!);
  try {
    const receiver = await startReceiver({ ...limits, spoolPath, onProblem: (message) => io.stderr(`warning: ${sanitizeText(message)}\n`) });
    let outcome: CommandOutcome;
    try {
      io.stderr(`receiving OTLP traces on ${receiver.endpoint}/v1/traces\n`);
      const env = { ...io.env, ...otlpEnvironment(receiver.endpoint, protocolFor(io.env)) };
      outcome = await runChild(command, commandArgs, io.cwd, env);
    } finally {
      await receiver.stop();
    }
    io.stderr(`${lostAny(receiver.stats) ? 'warning: ' : ''}${describeStats(receiver.stats)}\n`);
    if (outcome.kind === 'not-started') {
      io.stderr(`${outcome.error.code}: ${outcome.error.message}\n`);
      return outcome.exitCode;
    }
    if (outcome.exitCode !== 0) io.stderr(`the command exited with ${outcome.description}\n`);
    // The audit flags are run's own (the same table as audit's); the positionals are the named files and the spool when it was written to --out.
    const auditArgs: ParsedArgs = { positionals: spoolDir ? files : [...files, spoolPath], afterTerminator: null, string: args.string, strings: args.strings, boolean: args.boolean };
    // What the receiver lost is a receiver-loss finding on the spool (when it is read as the source).
    const audited = await auditCommand(auditArgs, io, spoolDir ? [{ root: dirname(spoolPath), prefix: SPOOL_PREFIX, notes: lossNotes(receiver.stats) }] : []);
    return audited !== 0 ? audited : outcome.exitCode;
  } finally {
    if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
  }
}

type CommandOutcome = { kind: 'exited'; exitCode: number; description: string } | { kind: 'not-started'; exitCode: number; error: UserError };

/** Runs the command with the terminal's stdio, passing SIGINT and SIGTERM on to it. */
function runChild(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CommandOutcome> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const finish = (outcome: CommandOutcome) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      done(outcome);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      const shown = sanitizeText(command);
      if (error.code === 'ENOENT') finish({ kind: 'not-started', exitCode: 127, error: new UserError('command-not-found', `${shown}: no such command (looked up on PATH)`) });
      else if (error.code === 'EACCES') finish({ kind: 'not-started', exitCode: 126, error: new UserError('command-not-executable', `${shown}: permission denied`) });
      else finish({ kind: 'not-started', exitCode: 126, error: new UserError('command-failed-to-start', `${shown}: ${error.message.split('\n')[0]}`) });
    });
    child.once('exit', (code, signal) => {
      if (signal) finish({ kind: 'exited', exitCode: 128 + (constants.signals[signal] ?? 0), description: `signal ${signal}` });
      else finish({ kind: 'exited', exitCode: code ?? 1, description: `code ${code ?? 1}` });
    });
  });
}
