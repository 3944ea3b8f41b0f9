import { resolve } from 'node:path';
import { namedConfinement, realFolder } from '../io/confine.js';
import { UsageError } from '../errors.js';
import { DEFAULT_LIMITS } from '../io/limits.js';
import { formatVerdict, readCheckpoint, verdictExitCode, verifyFile } from '../seal/index.js';
import type { CommandSpec, ParsedArgs } from './command.js';
import type { CliIO } from './io.js';

export const VERIFY: CommandSpec = {
  name: 'verify',
  summary: 'verify a sealed file: intact, broken (first broken link), truncated, appended or swapped',
  args: '<sealed.jsonl>',
  details: [
    'Without a checkpoint only edits inside the chain can be seen; with one, a cut tail, appended lines',
    'and another file swapped in are told apart. A file that was never sealed is the error not-sealed.',
    'Exit codes: 0 intact, 1 not intact, 2 usage or input error (missing, unreadable or not a sealed file).',
  ],
  flags: [{ name: 'checkpoint', type: 'string', value: 'file', default: 'none', description: 'the checkpoint written by seal (<sealed file>.seal.json)' }],
  examples: ['agent-trace-audit verify sealed.jsonl --checkpoint sealed.jsonl.seal.json'],
  run: verifyCommand,
};

/** `verify`: exit 0 when the chain is intact (and matches the checkpoint), 1 when not, 2 when the input cannot be read. */
async function verifyCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError('verify takes exactly one sealed file');
  const sealed = args.positionals[0]!;
  const checkpointName = args.string('checkpoint');
  const checkpoint = checkpointName === undefined ? null : await readCheckpoint(resolve(io.cwd, checkpointName), checkpointName, namedConfinement(resolve(io.cwd, checkpointName), realFolder(io.cwd), io.cwd));
  const verdict = await verifyFile(resolve(io.cwd, sealed), sealed, checkpoint, DEFAULT_LIMITS);
  io.stdout(formatVerdict(verdict));
  return verdictExitCode(verdict);
}
