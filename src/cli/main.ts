import type { CliIO } from './io.js';
import { describeError, UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { AUDIT } from './audit.js';
import { commandHelp, parseCommandArgs, usageLine, type CommandSpec } from './command.js';
import { MERGE } from './merge.js';
import { nearest } from './nearest.js';
import { RECEIVE } from './receive.js';
import { REPLAY } from './replay.js';
import { RUN } from './run.js';
import { SCOPE } from './scope.js';
import { SEAL } from './seal.js';
import { VERIFY } from './verify.js';

/** Every command, in the order the help lists them; each is one entry (src/cli/command.ts). */
const COMMANDS: readonly CommandSpec[] = [AUDIT, REPLAY, SCOPE, SEAL, VERIFY, MERGE, RUN, RECEIVE];

const BY_NAME = new Map(COMMANDS.map((command) => [command.name, command]));

export function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return `agent-trace-audit ${VERSION}: audit the tool-call traces of AI agents

usage: agent-trace-audit <command> [arguments] [flags]

commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Run 'agent-trace-audit <command> --help' (or 'agent-trace-audit help <command>') for its flags, defaults and an example.
Other: agent-trace-audit --version | --help

Exit codes: 0 clean, 1 findings at or above the fail level (verify: not intact), 2 usage, configuration or input error.
`;
}

/** Runs one command line; returns the exit code. Never throws. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  // After `--` the words are another program's (`run -- cmd --debug`), not ours.
  const own = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const debug = own.includes('--debug') || io.env['ACTIONS_STEP_DEBUG'] === 'true';
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout)(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(`agent-trace-audit ${VERSION}\n`);
    return 0;
  }
  try {
    if (name === 'help') {
      if (args[0] === undefined) io.stdout(usage());
      else io.stdout(commandHelp(commandNamed(args[0])));
      return 0;
    }
    const command = commandNamed(name);
    const parsed = parseCommandArgs(command, args);
    if (parsed.boolean('help')) {
      io.stdout(commandHelp(command));
      return 0;
    }
    if (debug) io.env['AGENT_TRACE_AUDIT_DEBUG'] = '1';
    io.tuneHeap?.(io.env);
    return await command.run(parsed, io);
  } catch (error) {
    const usageHint = error instanceof UsageError && BY_NAME.has(name) && !error.message.includes('\n') ? `\n${usageLine(BY_NAME.get(name)!)} (see agent-trace-audit ${name} --help)` : '';
    io.stderr(`${describeError(error, debug)}${usageHint}\n`);
    return 2;
  }
}

function commandNamed(name: string): CommandSpec {
  const command = BY_NAME.get(name);
  if (command) return command;
  const guess = nearest(name, COMMANDS.map((c) => c.name));
  throw new UsageError(`unknown command ${JSON.stringify(name)}${guess === null ? '' : `: did you mean ${guess}?`} (commands: ${COMMANDS.map((c) => c.name).join(', ')})`);
}
