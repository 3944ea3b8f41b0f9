import { guardMessages, type CliIO } from './io.js';
import { describeError, UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { commandHelp, parseCommandArgs, usageLine, type CommandSpec } from './command.js';
import { nearest } from '../nearest.js';

/**
 * Every command, in the order the help lists them; each is one entry (src/cli/command.ts),
 * loaded when it runs: a start pays for its own command only (`audit` never loads the
 * receiver, the seal or the merge). `webpackMode: "eager"` keeps each in the one bundle
 * file, evaluated on first use (see scripts/build.mjs).
 */
const COMMANDS: ReadonlyMap<string, () => Promise<CommandSpec>> = new Map([
  ['audit', async () => (await import(/* webpackMode: "eager" */ './commands/audit.js')).AUDIT],
  ['replay', async () => (await import(/* webpackMode: "eager" */ './commands/replay.js')).REPLAY],
  ['scope', async () => (await import(/* webpackMode: "eager" */ './commands/scope.js')).SCOPE],
  ['seal', async () => (await import(/* webpackMode: "eager" */ './commands/seal.js')).SEAL],
  ['verify', async () => (await import(/* webpackMode: "eager" */ './commands/verify.js')).VERIFY],
  ['merge', async () => (await import(/* webpackMode: "eager" */ './commands/merge.js')).MERGE],
  ['run', async () => (await import(/* webpackMode: "eager" */ './commands/run.js')).RUN],
  ['receive', async () => (await import(/* webpackMode: "eager" */ './commands/receive.js')).RECEIVE],
  ['formats', async () => (await import(/* webpackMode: "eager" */ './commands/formats.js')).FORMATS_COMMAND],
]);

const NAMES = [...COMMANDS.keys()];

/** Every command's entry, in the order the help lists them. */
export async function commandSpecs(): Promise<CommandSpec[]> {
  return await Promise.all([...COMMANDS.values()].map((load) => load()));
}

async function usage(): Promise<string> {
  const specs = await commandSpecs();
  const width = Math.max(...NAMES.map((name) => name.length));
  return `agent-trace-audit ${VERSION}: audit the tool-call traces of AI agents

usage: agent-trace-audit <command> [arguments] [flags]

commands:
${specs.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Run 'agent-trace-audit <command> --help' (or 'agent-trace-audit help <command>') for its flags, defaults and an example.
Other: agent-trace-audit --version | --help

Exit codes: 0 clean, 1 findings at or above the fail level (verify: not intact), 2 usage, configuration or input error.
`;
}

/** Runs one command line; returns the exit code. Never throws. */
export async function runCli(argv: string[], given: CliIO): Promise<number> {
  const io = guardMessages(given);
  // After `--` the words are another program's (`run -- cmd --debug`), not ours.
  const own = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const debug = own.includes('--debug') || io.env['ACTIONS_STEP_DEBUG'] === 'true';
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout)(await usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(`agent-trace-audit ${VERSION}\n`);
    return 0;
  }
  try {
    if (name === 'help') {
      if (args[0] === undefined) io.stdout(await usage());
      else io.stdout(commandHelp(await commandNamed(args[0])));
      return 0;
    }
    const command = await commandNamed(name);
    const parsed = parseCommandArgs(command, args);
    if (parsed.boolean('help')) {
      io.stdout(commandHelp(command));
      return 0;
    }
    if (debug) io.env['AGENT_TRACE_AUDIT_DEBUG'] = '1';
    io.tuneHeap?.(io.env);
    return await command.run(parsed, io);
  } catch (error) {
    const usageHint = error instanceof UsageError && COMMANDS.has(name) && !error.message.includes('\n') ? `\n${usageLine(await COMMANDS.get(name)!())} (see agent-trace-audit ${name} --help)` : '';
    io.stderr(`${describeError(error, debug)}${usageHint}\n`);
    return 2;
  }
}

async function commandNamed(name: string): Promise<CommandSpec> {
  const load = COMMANDS.get(name);
  if (load) return await load();
  const guess = nearest(name, NAMES);
  throw new UsageError(`unknown command ${JSON.stringify(name)}${guess === null ? '' : `: did you mean ${guess}?`} (commands: ${NAMES.join(', ')})`);
}
