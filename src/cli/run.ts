import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError, UserError } from '../errors.js';
import { otlpEnvironment, protocolFor } from '../receiver/endpoint-env.js';
import { describeStats, startReceiver } from '../receiver/server.js';
import { sanitizeText } from '../sanitize/text.js';
import { auditCommand, AUDIT_USAGE } from './audit.js';
import { parseFlags, type CliIO } from './io.js';
import { RECEIVER_FLAGS, RECEIVER_FLAGS_USAGE, receiverLimits } from './receiver-flags.js';

export const RUN_USAGE = `usage: agent-trace-audit run ${RECEIVER_FLAGS_USAGE} [audit flags] [trace files...] -- <command> [args...]
       (runs the command with OTEL_EXPORTER_OTLP_* pointed at a receiver on 127.0.0.1, then audits what it exported;
        exit: the audit's code, else the command's when it failed; 127/126 when it could not start)`;

/** Audit flags `run` passes on to `audit` unchanged. */
const AUDIT_FLAGS = {
  format: { type: 'string', short: 'f' },
  config: { type: 'string', short: 'c' },
  'fail-on': { type: 'string' },
  'input-format': { type: 'string' },
  output: { type: 'string', short: 'o' },
  jobs: { type: 'string', short: 'j' },
  debug: { type: 'boolean' },
} as const;

/** The spool's name in the report when --out is not given: `otlp-receiver/otlp-spans.jsonl`. */
export const SPOOL_PREFIX = 'otlp-receiver';
const SPOOL_FILE = 'otlp-spans.jsonl';

/**
 * `run`: receiver up, command run with the OTLP variables, receiver stopped once
 * the command exits (every acknowledged span is in the spool by then), then the
 * spool audited together with any trace files named, through `audit` itself.
 */
export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const split = args.indexOf('--');
  if (split < 0 || split === args.length - 1) throw new UsageError(`run needs a command after --\n${RUN_USAGE}`);
  const [command, ...commandArgs] = args.slice(split + 1) as [string, ...string[]];
  const ownArgs = args.slice(0, split);
  const { values, positionals } = parseFlags(ownArgs, { ...RECEIVER_FLAGS, ...AUDIT_FLAGS }, `${RUN_USAGE}\n${AUDIT_USAGE}`);
  const limits = receiverLimits(values);
  const spoolDir = values.out === undefined ? await mkdtemp(join(tmpdir(), 'agent-trace-audit-otlp-')) : null;
  const spoolPath = spoolDir ? join(spoolDir, SPOOL_FILE) : resolve(io.cwd, values.out!);
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
    io.stderr(`${describeStats(receiver.stats)}\n`);
    if (outcome.kind === 'not-started') {
      io.stderr(`${outcome.error.code}: ${outcome.error.message}\n`);
      return outcome.exitCode;
    }
    if (outcome.exitCode !== 0) io.stderr(`the command exited with ${outcome.description}\n`);
    const auditArgs = auditArguments(values, positionals, spoolDir ? null : spoolPath);
    const audited = await auditCommand(auditArgs, io, spoolDir ? [{ root: dirname(spoolPath), prefix: SPOOL_PREFIX }] : []);
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

/** The `audit` command line: the audit flags as given, the named trace files, and the spool when it was written to --out. */
function auditArguments(values: Record<string, string | boolean | undefined>, files: string[], spoolFile: string | null): string[] {
  const out: string[] = [];
  for (const name of Object.keys(AUDIT_FLAGS)) {
    const value = values[name];
    if (value === true) out.push(`--${name}`);
    else if (typeof value === 'string') out.push(`--${name}`, value);
  }
  out.push('--', ...files);
  if (spoolFile) out.push(spoolFile);
  return out;
}
