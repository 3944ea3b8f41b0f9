import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { alreadyExists } from '../io/file-errors.js';
import { DEFAULT_LIMITS } from '../io/limits.js';
import { fileSink, requireSealMode, SEAL_MODES, sealFile, type SealSink } from '../seal/index.js';
import { MAX_UNSEALED_LINES } from '../seal/unsealed-lines.js';
import { unsealedLines } from '../seal/verdict.js';
import { oneOf, type CommandSpec, type ParsedArgs } from './command.js';
import type { CliIO } from './io.js';

export const SEAL: CommandSpec = {
  name: 'seal',
  summary: 'seal a trace into a SHA-256 hash chain (prev and digest on every record) with a checkpoint',
  args: '<file>',
  details: [
    'To a terminal, the chain is written to <name>.sealed.jsonl and the checkpoint beside it (<out>.seal.json).',
    'When stdout is redirected or piped (seal t.jsonl > sealed.jsonl), or with -o -, the chain goes to stdout',
    'and the checkpoint beside the file stdout was redirected to, or to --checkpoint.',
    'An existing sealed file or checkpoint is not replaced without --force.',
    'A line that is not a record stops the seal, unless --skip-unsealable leaves it out and lists it in the checkpoint.',
    'Exit codes: 0 sealed, 2 usage error or a file that cannot be sealed (file:line named).',
  ],
  flags: [
    { name: 'output', short: 'o', type: 'string', value: 'file|-', default: '<name>.sealed.jsonl, or stdout when it is not a terminal', description: 'where the sealed chain goes (- for stdout)' },
    { name: 'checkpoint', type: 'string', value: 'file', default: '<sealed file>.seal.json', description: 'where the checkpoint goes' },
    { name: 'canonical', type: 'string', value: SEAL_MODES.join('|'), default: 'jcs', description: 'canonical form of each record: RFC 8785 JCS, or Python json.dumps(sort_keys=True)' },
    { name: 'force', type: 'boolean', default: 'off', description: 'replace an existing sealed file or checkpoint' },
    {
      name: 'skip-unsealable',
      type: 'boolean',
      default: 'off',
      description: `seal the records and leave out lines that are not records (up to ${MAX_UNSEALED_LINES}), listed in the checkpoint, as the Action does`,
    },
  ],
  examples: ['agent-trace-audit seal session.jsonl > sealed.jsonl && agent-trace-audit verify sealed.jsonl', 'agent-trace-audit seal trace.jsonl.gz -o trace.sealed.jsonl'],
  run: sealCommand,
};

/** `<dir>/trace.jsonl[.gz]` → `<dir>/trace.sealed.jsonl`. */
export function defaultSealedPath(input: string): string {
  const stem = input.replace(/\.gz$/i, '').replace(/\.(?:jsonl|ndjson|json)$/i, '');
  return `${stem}.sealed.jsonl`;
}

/** `seal`: writes the sealed JSONL and its checkpoint; exit 0, or 2 when the input cannot be sealed. */
async function sealCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError('seal takes exactly one file');
  const input = args.positionals[0]!;
  const mode = oneOf('canonical', args.string('canonical'), SEAL_MODES) ?? 'jcs';
  requireSealMode(mode);
  const outputFlag = args.string('output');
  const toStdout = outputFlag === '-' || (outputFlag === undefined && io.stdoutIsTerminal === false);
  const output = toStdout ? null : (outputFlag ?? defaultSealedPath(input));
  const redirectedTo = toStdout && io.stdoutFile ? shown(io.cwd, io.stdoutFile) : null;
  const checkpointFlag = args.string('checkpoint');
  const checkpoint = checkpointFlag ?? (output !== null ? `${output}.seal.json` : redirectedTo !== null ? `${redirectedTo}.seal.json` : null);
  const paths = [input, output ?? redirectedTo, checkpoint].filter((p): p is string => p !== null).map((p) => resolve(io.cwd, p));
  if (new Set(paths).size !== paths.length) throw new UsageError('the input, the sealed file and the checkpoint must be three different files');
  if (!args.boolean('force')) {
    // The checkpoint beside a redirected stdout belongs to the file the shell has just replaced: it is replaced too.
    const guarded = [output, checkpointFlag !== undefined || output !== null ? checkpoint : null];
    for (const path of guarded) if (path !== null && existsSync(resolve(io.cwd, path))) throw alreadyExists(path);
  }

  const sink: SealSink = output === null ? stdoutSink(io) : await fileSink(resolve(io.cwd, output), output);
  const result = await sealFile({
    path: resolve(io.cwd, input),
    display: input,
    sink,
    checkpointPath: checkpoint === null ? null : resolve(io.cwd, checkpoint),
    checkpointDisplay: checkpoint ?? '',
    mode,
    limits: DEFAULT_LIMITS,
    env: io.env,
    ...(args.boolean('skip-unsealable') ? { unsealable: { firstLineMustSeal: false } } : {}),
  });
  const summary = [
    `sealed: ${result.records} record(s) in ${mode} form`,
    `sealed file: ${output ?? redirectedTo ?? '(stdout)'}`,
    `checkpoint: ${checkpoint ?? 'not written (stdout is not a file: pass --checkpoint <file> to keep one)'}`,
    `final digest: ${result.final_digest}`,
    ...unsealedLines(result),
  ].join('\n');
  (toStdout ? io.stderr : io.stdout)(`${summary}\n`);
  return 0;
}

/** A path as the user would write it: relative to the working folder when inside it. */
function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

function stdoutSink(io: CliIO): SealSink {
  return {
    write: async (bytes) => {
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
      if (io.stdoutStream) {
        // Backpressure: a large chain is not buffered whole in memory.
        if (!io.stdoutStream.write(text)) await new Promise<void>((done) => io.stdoutStream!.once('drain', () => done()));
      } else io.stdout(text);
    },
    commit: async () => undefined,
    abort: async () => undefined,
  };
}
