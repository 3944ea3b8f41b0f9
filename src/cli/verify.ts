import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { DEFAULT_LIMITS } from '../io/limits.js';
import { formatVerdict, readCheckpoint, verdictExitCode, verifyFile } from '../seal/index.js';
import { parseFlags, type CliIO } from './io.js';

export const VERIFY_USAGE = 'usage: agent-trace-audit verify <sealed.jsonl> [--checkpoint <sealed.jsonl>.seal.json]';

/** `verify`: exit 0 when the chain is intact (and matches the checkpoint), 1 when not, 2 when the input cannot be read. */
export async function verifyCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(args, { checkpoint: { type: 'string' }, debug: { type: 'boolean' } }, VERIFY_USAGE);
  if (positionals.length !== 1) throw new UsageError(`verify takes exactly one sealed file\n${VERIFY_USAGE}`);
  const sealed = positionals[0]!;
  const checkpoint = values.checkpoint === undefined ? null : await readCheckpoint(resolve(io.cwd, values.checkpoint), values.checkpoint);
  const verdict = await verifyFile(resolve(io.cwd, sealed), sealed, checkpoint, DEFAULT_LIMITS);
  io.stdout(formatVerdict(verdict));
  return verdictExitCode(verdict);
}
