import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { InputError, UsageError } from '../../errors.js';
import { alreadyExists } from '../../io/file-errors.js';
import { namedPath } from '../../io/confine.js';
import { DEFAULT_LIMITS } from '../../io/limits.js';
import { fileSink, requireSealMode, SEAL_FORMS, SEAL_MODES, sealAs, type SealForm } from '../../seal/index.js';
import { redactToFile } from '../../seal/redact/redact-file.js';
import { MAX_UNSEALED_LINES, stoppedAfterRecords } from '../../seal/unsealed-lines.js';
import { unsealedLines } from '../../seal/verify/verdict.js';
import { oneOf, type CommandSpec, type ParsedArgs } from '../command.js';
import type { CliIO } from '../io.js';

export const SEAL: CommandSpec = {
  name: 'seal',
  summary: 'seal a trace into a SHA-256 hash chain (prev and digest on every link) with a checkpoint, as the Action does',
  args: '<file>',
  details: [
    'To a terminal, the chain is written to <name>.sealed.jsonl and the checkpoint beside it (<out>.seal.json).',
    'When stdout is redirected or piped (seal t.jsonl > sealed.jsonl), or with -o -, the chain goes to stdout',
    'and the checkpoint beside the file stdout was redirected to, or to --checkpoint.',
    'An existing sealed file or checkpoint is not replaced without --force.',
    '--form auto (the default) seals as the Action does: records in JCS, records in the Python form (integers',
    'past 2^53), then the file\'s bytes (a JSON document, an .eval archive, a YAML cassette: kind: bytes).',
    'In a JSON Lines file, a later line that is not a record stops the seal, unless --skip-unsealable leaves it out',
    'and lists it in the checkpoint. --redact replaces every secret the audit finds before sealing (receipts in the checkpoint;',
    'to a pipe it needs --checkpoint).',
    'Exit codes: 0 sealed, 2 usage error or a file that cannot be sealed (file:line named; a seal of no record is never a success).',
  ],
  flags: [
    { name: 'output', short: 'o', type: 'string', value: 'file|-', default: '<name>.sealed.jsonl, or stdout when it is not a terminal', description: 'where the sealed chain goes (- for stdout)' },
    { name: 'checkpoint', type: 'string', value: 'file', default: '<sealed file>.seal.json', description: 'where the checkpoint goes' },
    {
      name: 'form',
      type: 'string',
      value: SEAL_FORMS.join('|'),
      default: 'auto',
      description: 'records in RFC 8785 JCS, records in Python json.dumps(sort_keys=True), the bytes of the file, or the first that fits, in that order',
    },
    { name: 'canonical', type: 'string', value: SEAL_MODES.join('|'), default: 'none', description: 'the same as --form jcs or --form python (kept for scripts)' },
    { name: 'redact', type: 'boolean', default: 'off', description: 'replace each secret the audit finds with [REDACTED:<rule>:<n>] before sealing, one receipt per value in the checkpoint' },
    { name: 'force', type: 'boolean', default: 'off', description: 'replace an existing sealed file or checkpoint' },
    {
      name: 'skip-unsealable',
      type: 'boolean',
      default: 'off',
      description: `seal the records and leave out lines that are not records (up to ${MAX_UNSEALED_LINES}), listed in the checkpoint, as the Action does`,
    },
  ],
  examples: [
    'agent-trace-audit seal session.jsonl > sealed.jsonl && agent-trace-audit verify sealed.jsonl',
    'agent-trace-audit seal logs/run.eval --redact    # a byte-sealed chain (kind: bytes), secrets replaced',
    'agent-trace-audit seal trace.jsonl.gz -o trace.sealed.jsonl',
  ],
  run: sealCommand,
};

/** `<dir>/trace.jsonl[.gz]` → `<dir>/trace.sealed.jsonl`. */
export function defaultSealedPath(input: string): string {
  const stem = input.replace(/\.gz$/i, '').replace(/\.(?:jsonl|ndjson|json)$/i, '');
  return `${stem}.sealed.jsonl`;
}

/** The form asked for: --form, or --canonical (the older flag), or auto. */
function formOf(args: ParsedArgs): SealForm {
  const form = oneOf('form', args.string('form'), SEAL_FORMS);
  const canonical = oneOf('canonical', args.string('canonical'), SEAL_MODES);
  if (form !== undefined && canonical !== undefined && form !== canonical) throw new UsageError(`--form ${form} and --canonical ${canonical} disagree: give one of them`);
  if (canonical !== undefined) requireSealMode(canonical);
  return form ?? canonical ?? 'auto';
}

/** `seal`: writes the sealed JSONL and its checkpoint; exit 0, or 2 when the input cannot be sealed. */
async function sealCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError('seal takes exactly one file');
  const input = args.positionals[0]!;
  const form = formOf(args);
  // The workspace rule (src/io/confine.ts): inside the working folder no symlink leads out of it or into .git; a regular file only.
  const inputReal = namedPath(io.cwd, input, 'file');
  const outputFlag = args.string('output');
  const toStdout = outputFlag === '-' || (outputFlag === undefined && io.stdoutIsTerminal === false);
  const output = toStdout ? null : (outputFlag ?? defaultSealedPath(input));
  const redirectedTo = toStdout && io.stdoutFile ? shown(io.cwd, io.stdoutFile) : null;
  const checkpointFlag = args.string('checkpoint');
  const checkpoint = checkpointFlag ?? (output !== null ? `${output}.seal.json` : redirectedTo !== null ? `${redirectedTo}.seal.json` : null);
  const paths = [input, output ?? redirectedTo, checkpoint].filter((p): p is string => p !== null).map((p) => resolve(io.cwd, p));
  if (new Set(paths).size !== paths.length) throw new UsageError('the input, the sealed file and the checkpoint must be three different files');
  // The receipts of what --redact replaces live in the checkpoint only: a pipe without --checkpoint would lose them.
  if (args.boolean('redact') && checkpoint === null) throw new UsageError('seal --redact keeps one receipt per replaced value in the checkpoint, and stdout is a pipe (no file to put it beside): pass --checkpoint <file>');
  if (!args.boolean('force')) {
    // The checkpoint beside a redirected stdout belongs to the file the shell has just replaced: it is replaced too.
    const guarded = [output, checkpointFlag !== undefined || output !== null ? checkpoint : null];
    for (const path of guarded) if (path !== null && existsSync(resolve(io.cwd, path))) throw alreadyExists(path);
  }

  // To stdout the chain is sealed into a temporary file first: `auto` may start over in another form.
  const work = await mkdtemp(join(tmpdir(), 'ata-seal-'));
  try {
    const redacted = args.boolean('redact') ? await redactToFile(inputReal, input, join(work, 'redacted'), DEFAULT_LIMITS) : null;
    const target = output === null ? join(work, 'sealed.jsonl') : resolve(io.cwd, output);
    const sealed = await sealAs({
      path: redacted?.path ?? inputReal,
      display: input,
      sink: () => fileSink(target, output ?? '(stdout)'),
      checkpointPath: checkpoint === null ? null : resolve(io.cwd, checkpoint),
      checkpointDisplay: checkpoint ?? '',
      form,
      limits: DEFAULT_LIMITS,
      env: io.env,
      leaveOut: args.boolean('skip-unsealable'),
      redactions: redacted?.receipts ?? [],
    }).catch((error: unknown) => {
      throw withSkipHint(error);
    });
    if (output === null) await copyToStdout(target, io);
    const { checkpoint: result, mode, kind } = sealed;
    const what = kind === 'bytes' ? `${result.records} link(s) of the file's bytes (kind: bytes)` : `${result.records} record(s) in ${mode} form`;
    const summary = [
      `sealed: ${what}`,
      `sealed file: ${output ?? redirectedTo ?? '(stdout)'}`,
      `checkpoint: ${checkpoint ?? 'not written (stdout is not a file: pass --checkpoint <file> to keep one)'}`,
      `final digest: ${result.final_digest}`,
      ...(redacted ? [redactedLine(redacted.receipts.length, checkpoint)] : []),
      ...unsealedLines(result),
    ].join('\n');
    (toStdout ? io.stderr : io.stdout)(`${summary}\n`);
    return 0;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The line `seal --redact` prints: how many values were replaced, and where their receipts are. */
function redactedLine(count: number, checkpoint: string | null): string {
  return count === 0 ? 'redacted: no secret found' : `redacted: ${count} value(s) replaced before sealing, one receipt each in the checkpoint (${checkpoint})`;
}

/** A JSON Lines file stopped by a line that is not a record: the error names the way out. */
function withSkipHint(error: unknown): unknown {
  if (!(error instanceof InputError) || !stoppedAfterRecords(error)) return error;
  return new InputError(error.file, error.line, error.code, `${error.message} (seal --skip-unsealable leaves such lines out of the chain and lists them in the checkpoint)`);
}

async function copyToStdout(path: string, io: CliIO): Promise<void> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    if (io.stdoutStream) {
      // Backpressure: a large chain is not buffered whole in memory.
      if (!io.stdoutStream.write(chunk as Buffer)) await new Promise<void>((done) => io.stdoutStream!.once('drain', () => done()));
    } else (io.stdoutData ?? io.stdout)(decoder.write(chunk as Buffer));
  }
  if (!io.stdoutStream) (io.stdoutData ?? io.stdout)(decoder.end());
}

/** A path as the user would write it: relative to the working folder when inside it. */
function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
