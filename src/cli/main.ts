import type { CliIO } from './io.js';
import { describeError } from '../errors.js';
import { VERSION } from '../version.js';
import { AUDIT_USAGE, auditCommand } from './audit.js';
import { MERGE_USAGE, mergeCommand } from './merge.js';
import { RECEIVE_USAGE, receiveCommand } from './receive.js';
import { REPLAY_USAGE, replayCommand } from './replay.js';
import { RUN_USAGE, runCommand } from './run.js';
import { SCOPE_USAGE, scopeCommand } from './scope.js';
import { SEAL_USAGE, sealCommand } from './seal.js';
import { VERIFY_USAGE, verifyCommand } from './verify.js';

type Command = (args: string[], io: CliIO) => Promise<number>;

/** Every subcommand; each file in src/cli/ translates its flags and calls the core. */
const COMMANDS: Record<string, { run: Command; usage: string }> = Object.assign(Object.create(null) as Record<string, { run: Command; usage: string }>, {
  audit: { run: auditCommand, usage: AUDIT_USAGE },
  merge: { run: mergeCommand, usage: MERGE_USAGE },
  receive: { run: receiveCommand, usage: RECEIVE_USAGE },
  replay: { run: replayCommand, usage: REPLAY_USAGE },
  run: { run: runCommand, usage: RUN_USAGE },
  scope: { run: scopeCommand, usage: SCOPE_USAGE },
  seal: { run: sealCommand, usage: SEAL_USAGE },
  verify: { run: verifyCommand, usage: VERIFY_USAGE },
});

export function usage(): string {
  return `agent-trace-audit ${VERSION}: audit the tool-call traces of AI agents

${Object.values(COMMANDS)
  .map((command) => command.usage)
  .join('\n')}
       agent-trace-audit --version | --help

Exit codes: 0 clean, 1 findings at or above the fail level, 2 usage, configuration or input error.
`;
}

/** Runs one command line; returns the exit code. Never throws. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const debug = argv.includes('--debug') || io.env['ACTIONS_STEP_DEBUG'] === 'true';
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(`agent-trace-audit ${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`usage: unknown command ${JSON.stringify(name)}\n${usage()}`);
    return 2;
  }
  try {
    if (debug) io.env['AGENT_TRACE_AUDIT_DEBUG'] = '1';
    io.tuneHeap?.(io.env);
    return await command.run(args, io);
  } catch (error) {
    io.stderr(`${describeError(error, debug)}\n`);
    return 2;
  }
}
