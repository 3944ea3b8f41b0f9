import { existsSync, statSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { InputError, UsageError } from '../../errors.js';
import { namedConfinement, namedPath, realFolder } from '../../io/confine.js';
import { DEFAULT_LIMITS } from '../../io/limits.js';
import { formatArtifactCheck, unpackArtifact } from '../../seal/verify/artifact-report.js';
import { formatVerdict, readCheckpoint, verdictExitCode, verifyFile } from '../../seal/index.js';
import { SEAL_MANIFEST } from '../../seal/manifest.js';
import { verifyArtifact } from '../../seal/verify/verify-artifact.js';
import type { CommandSpec, ParsedArgs } from '../command.js';
import type { CliIO } from '../io.js';

export const VERIFY: CommandSpec = {
  name: 'verify',
  summary: "verify a sealed file, or a whole artifact of the Action (zip, folder or seal-manifest.json) against the run's seal digest",
  args: '<artifact.zip | artifact folder | seal-manifest.json | sealed.jsonl>',
  details: [
    'An artifact (the zip as downloaded, its folder, or its seal-manifest.json): every file the manifest lists is verified',
    'against its checkpoint, one line each (intact, broken at index N, truncated, appended, swapped, missing), the seal',
    'digest is recomputed and, with --seal-digest, compared with the run\'s; --sources also checks each original trace.',
    'A sealed file: without a checkpoint only edits inside the chain can be seen; with one (--checkpoint, or',
    '<file>.seal.json when it is beside the file), a cut tail, appended lines and another file swapped in are told apart.',
    'Exit codes: 0 intact (every file, and the seal digest when given), 1 not intact, 2 usage or input error',
    '(missing or unreadable input, a file that was never sealed and has no checkpoint, an invalid manifest).',
  ],
  flags: [
    { name: 'checkpoint', type: 'string', value: 'file', default: '<sealed file>.seal.json when it exists', description: 'the checkpoint written by seal, for a sealed file' },
    { name: 'seal-digest', type: 'string', value: 'sha256:hex', default: 'none', description: "the run's seal digest (comment, check run, step output seal-digest), for an artifact" },
    { name: 'sources', type: 'string', value: 'folder', default: 'none', description: "a folder holding the original traces under their manifest names: each must match its checkpoint's source_sha256" },
  ],
  examples: [
    'gh run download 123 -n agent-trace-audit -D art && agent-trace-audit verify art --seal-digest sha256:…',
    'agent-trace-audit verify agent-trace-audit.zip --seal-digest sha256:…',
    'agent-trace-audit verify sealed.jsonl --checkpoint sealed.jsonl.seal.json',
  ],
  run: verifyCommand,
};

/** `verify`: exit 0 when intact, 1 when not, 2 when the input cannot be read. */
async function verifyCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError('verify takes exactly one artifact or sealed file');
  const given = args.positionals[0]!;
  // The workspace rule (src/io/confine.ts) for what was named: no symlink out of the working folder or into .git.
  const path = namedPath(io.cwd, given, 'file-or-folder');
  if (statSync(path).isDirectory()) {
    if (!existsSync(join(path, SEAL_MANIFEST))) throw new InputError(given, null, 'no-seal-manifest', `${given}: a folder without ${SEAL_MANIFEST}: give the folder of a downloaded artifact, or a sealed file`);
    return artifact(join(path, SEAL_MANIFEST), join(given, SEAL_MANIFEST), args, io);
  }
  if (basename(resolve(io.cwd, given)) === SEAL_MANIFEST) return artifact(path, given, args, io);
  if (await isZip(path)) {
    const work = await mkdtemp(join(tmpdir(), 'ata-artifact-'));
    try {
      await unpackArtifact(path, given, work, DEFAULT_LIMITS.maxInflatedBytes);
      return await artifact(join(work, SEAL_MANIFEST), `${given}:${SEAL_MANIFEST}`, args, io);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  for (const flag of ['seal-digest', 'sources']) if (args.string(flag) !== undefined) throw new UsageError(`--${flag} is for an artifact (zip, folder or ${SEAL_MANIFEST}), not a sealed file`);
  return sealedFile(given, args, io);
}

async function artifact(manifestPath: string, display: string, args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.string('checkpoint') !== undefined) throw new UsageError('--checkpoint is for a sealed file: an artifact names each checkpoint in its manifest');
  const sources = args.string('sources');
  const check = await verifyArtifact(manifestPath, display, {
    sealDigest: args.string('seal-digest') ?? null,
    sources: sources === undefined ? null : namedPath(io.cwd, sources, 'folder'),
    limits: DEFAULT_LIMITS,
  });
  io.stdout(formatArtifactCheck(check, basename(display)));
  return check.ok ? 0 : 1;
}

/** Where `seal` puts a sealed file's checkpoint: beside it, with this suffix. */
const CHECKPOINT_SUFFIX = ['.seal', 'json'].join('.');

async function sealedFile(given: string, args: ParsedArgs, io: CliIO): Promise<number> {
  let checkpointName = args.string('checkpoint');
  // Built apart from resolve(): the bundler takes resolve(dir, `${x}.json`) for an asset of its own and rewrites it.
  const beside = given + CHECKPOINT_SUFFIX;
  if (checkpointName === undefined && existsSync(resolve(io.cwd, beside))) {
    checkpointName = beside;
    io.stderr(`verify: using the checkpoint beside the file: ${checkpointName}\n`);
  }
  const checkpoint = checkpointName === undefined ? null : await readCheckpoint(resolve(io.cwd, checkpointName), checkpointName, namedConfinement(resolve(io.cwd, checkpointName), realFolder(io.cwd), io.cwd));
  const verdict = await verifyFile(namedPath(io.cwd, given, 'file'), given, checkpoint, DEFAULT_LIMITS);
  io.stdout(formatVerdict(verdict));
  return verdictExitCode(verdict);
}

async function isZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return false;
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.toString('latin1') === 'PK\x03\x04';
  } finally {
    await handle.close();
  }
}
