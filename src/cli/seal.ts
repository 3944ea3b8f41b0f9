import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { DEFAULT_LIMITS } from '../io/limits.js';
import { fileSink, requireSealMode, SEAL_MODES, sealFile, type SealSink } from '../seal/index.js';
import { oneOf, parseFlags, type CliIO } from './io.js';

export const SEAL_USAGE = `usage: agent-trace-audit seal <file> [-o out.jsonl | -o -] [--checkpoint file] [--canonical ${SEAL_MODES.join('|')}]`;

/** `<dir>/trace.jsonl[.gz]` → `<dir>/trace.sealed.jsonl`. */
export function defaultSealedPath(input: string): string {
  const stem = input.replace(/\.gz$/i, '').replace(/\.(?:jsonl|ndjson|json)$/i, '');
  return `${stem}.sealed.jsonl`;
}

/** `seal`: writes the sealed JSONL and its checkpoint `<out>.seal.json`; exit 0, or 2 when the input cannot be sealed. */
export async function sealCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      output: { type: 'string', short: 'o' },
      checkpoint: { type: 'string' },
      canonical: { type: 'string' },
      debug: { type: 'boolean' },
    },
    SEAL_USAGE,
  );
  if (positionals.length !== 1) throw new UsageError(`seal takes exactly one file\n${SEAL_USAGE}`);
  const input = positionals[0]!;
  const mode = oneOf('canonical', values.canonical, SEAL_MODES) ?? 'jcs';
  requireSealMode(mode);
  const toStdout = values.output === '-';
  if (toStdout && values.checkpoint === undefined) throw new UsageError(`-o - writes the sealed file to stdout; give --checkpoint <file> for the checkpoint\n${SEAL_USAGE}`);
  const output = toStdout ? null : (values.output ?? defaultSealedPath(input));
  const checkpoint = values.checkpoint ?? `${output}.seal.json`;
  const paths = [input, output, checkpoint].filter((p): p is string => p !== null).map((p) => resolve(io.cwd, p));
  if (new Set(paths).size !== paths.length) throw new UsageError(`the input, the sealed file and the checkpoint must be three different files\n${SEAL_USAGE}`);

  const sink: SealSink = output === null ? stdoutSink(io) : await fileSink(resolve(io.cwd, output), output);
  const result = await sealFile({
    path: resolve(io.cwd, input),
    display: input,
    sink,
    checkpointPath: resolve(io.cwd, checkpoint),
    checkpointDisplay: checkpoint,
    mode,
    limits: DEFAULT_LIMITS,
    env: io.env,
  });
  const summary = [
    `sealed: ${result.records} record(s) in ${mode} form`,
    `sealed file: ${output ?? '(stdout)'}`,
    `checkpoint: ${checkpoint}`,
    `final digest: ${result.final_digest}`,
  ].join('\n');
  (toStdout ? io.stderr : io.stdout)(`${summary}\n`);
  return 0;
}

function stdoutSink(io: CliIO): SealSink {
  return {
    write: async (bytes) => io.stdout(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')),
    commit: async () => undefined,
    abort: async () => undefined,
  };
}
