import { createHash } from 'node:crypto';
import { InputError } from '../../errors.js';
import { openByteSource, type ByteSource } from '../../io/byte-source.js';
import { unreadable } from '../../io/file-errors.js';
import { readInputFile, type Confinement } from '../../io/confine.js';
import type { ReadLimits } from '../../io/limits.js';
import { parseCheckpoint, type Checkpoint } from '../checkpoint.js';
import { MAX_LINK_BYTES } from '../layout.js';
import { splitRawLines } from '../raw-lines.js';
import { judge, type Verdict } from './verdict.js';
import { createChainVerifier } from './verify.js';

const MAX_CHECKPOINT_BYTES = 64 * 1024;

/** Reads and checks a checkpoint file (small; read whole). */
export async function readCheckpoint(path: string, display: string, within: Confinement = { root: null }): Promise<Checkpoint> {
  // Its size is checked before a byte is read: a device or FIFO named as a checkpoint is refused at once.
  const tooLarge = () => new InputError(display, null, 'checkpoint-invalid', `${display}: a checkpoint is never more than ${MAX_CHECKPOINT_BYTES} bytes long`);
  const bytes = readInputFile(path, display, within, MAX_CHECKPOINT_BYTES, tooLarge);
  return parseCheckpoint(bytes.toString('utf8'), display);
}

/**
 * Verifies a sealed file (plain, or gzip-compressed after sealing) against its
 * own chain and, when given, its checkpoint. Streams: memory holds one line.
 * A file that cannot be read to its end (missing, or a gzip stream cut or
 * corrupt) or that has no sealed link at all (never sealed) is an InputError
 * (exit 2); every other answer is a Verdict.
 */
export async function verifyFile(path: string, display: string, checkpoint: Checkpoint | null, limits: ReadLimits): Promise<Verdict> {
  let source: ByteSource;
  try {
    source = await openByteSource(path, limits);
  } catch (error) {
    throw unreadable(display, error);
  }
  const hash = createHash('sha256');
  const verifier = createChainVerifier(checkpoint ? checkpoint.records : null);
  async function* hashed() {
    for await (const chunk of source.chunks()) {
      hash.update(chunk);
      yield chunk;
    }
  }
  for await (const line of splitRawLines(hashed(), MAX_LINK_BYTES)) verifier.push(line);
  if (source.problem) throw new InputError(display, null, 'unreadable', `${display}: cannot be verified: ${source.problem.message}`);
  const chain = verifier.result();
  const sealedSha256 = hash.digest('hex');
  if (chain.lines > 0 && !chain.anyLink) {
    // With a checkpoint, a file with no link (the unsealed source, anything else) is a changed file, not a usage error.
    if (checkpoint !== null) {
      const reason = 'no line of the file is a sealed link (the unsealed source, or another file, in place of the sealed one)';
      return { status: 'swapped', chain, sealedSha256, checkpoint, broken: null, reason, expected: checkpoint.sealed_sha256, found: sealedSha256 };
    }
    throw new InputError(display, null, 'not-sealed', `${display}: not a sealed file: no line has the "prev" and "digest" of a sealed link (seal it with: agent-trace-audit seal ${display})`);
  }
  return judge(chain, sealedSha256, checkpoint);
}
