import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { openByteSource, type ByteSource } from '../io/byte-source.js';
import type { ReadLimits } from '../io/limits.js';
import { LineSplitter, type FileFacts } from '../io/line-splitter.js';
import type { SealMode } from './canonical-record.js';
import { createSealer } from './chain.js';
import { buildCheckpoint, formatCheckpoint, type Checkpoint, type RedactionReceipt } from './checkpoint.js';
import { LinkWriter } from './layout.js';
import { unsealedLines, type UnsealedPolicy } from './unsealed-lines.js';
import { unreadable, unwritable } from '../io/file-errors.js';

/** Where sealed bytes go: a file (written whole or not at all) or a stream such as stdout. */
export interface SealSink {
  /** Writes whole sealed lines; `bytes` may be reused once the promise settles. */
  write(bytes: Uint8Array): Promise<void>;
  /** Called once after the last write, when sealing succeeded. */
  commit(): Promise<void>;
  /** Called instead of commit when sealing failed. */
  abort(): Promise<void>;
}

export interface SealFileRequest {
  /** Path to read, and the name to show in messages. */
  readonly path: string;
  readonly display: string;
  readonly sink: SealSink;
  /** Where the checkpoint goes (null: nowhere, the caller says so), and the name to show in messages. */
  readonly checkpointPath: string | null;
  readonly checkpointDisplay: string;
  readonly mode: SealMode;
  readonly limits: ReadLimits;
  /** Only GITHUB_* variables are read from it, and only when GITHUB_ACTIONS is "true". */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Leave lines that are not records out of the chain and list them in the
   * checkpoint (`unsealed_lines`), up to MAX_UNSEALED_LINES; absent: the first
   * such line stops the seal.
   */
  readonly unsealable?: UnsealedPolicy;
  /** Receipts of the values replaced before sealing (the file at `path` is already redacted). */
  readonly redactions?: readonly RedactionReceipt[];
}

const BATCH_BYTES = 1024 * 1024;

/**
 * Seals a trace file of any dialect, streaming: memory holds one input chunk,
 * the line being sealed and one output batch, and each line is decoded, sealed
 * and written out as bytes before the next is read, so the garbage per line
 * dies young instead of piling up in the old heap.
 */
export async function sealFile(request: SealFileRequest): Promise<Checkpoint> {
  const { path, display, sink, mode, limits } = request;
  let source: ByteSource;
  try {
    source = await openByteSource(path, limits);
  } catch (error) {
    await sink.abort();
    throw unreadable(display, error);
  }
  const sourceHash = createHash('sha256');
  const sealedHash = createHash('sha256');
  const facts: FileFacts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
  const unsealed = request.unsealable ? unsealedLines(mode, request.unsealable) : null;
  const sealer = createSealer(display, mode, limits.maxDepth, unsealed?.accept ?? null);
  // Room for a batch and the link that ends it, so the buffer seldom has to grow.
  const links = new LinkWriter(BATCH_BYTES + 64 * 1024);
  const flush = async () => {
    const bytes = links.take();
    sealedHash.update(bytes);
    await sink.write(bytes);
  };
  try {
    const chunks = source.gzip ? source.chunks() : teeHash(source.chunks(), sourceHash);
    const splitter = new LineSplitter(limits.maxLineBytes, facts);
    for await (const chunk of chunks) {
      for (const event of splitter.split(chunk)) {
        if (sealer.pushInto(event, links) && links.length >= BATCH_BYTES) await flush();
      }
    }
    const last = splitter.end();
    if (last !== null) sealer.pushInto(last, links);
    if (source.problem) throw new InputError(display, null, `seal-${source.problem.code}`, `${display}: cannot be sealed: ${source.problem.message}`);
    if (source.gzip) await hashFile(path, sourceHash, display);
    if (sealer.records === 0) throw nothingSealed(display, unsealed?.lines.length ?? 0);
    await flush();
  } catch (error) {
    await sink.abort();
    throw error;
  }
  const checkpoint = buildCheckpoint(
    { mode, records: sealer.records, finalDigest: sealer.finalDigest, sealedSha256: sealedHash.digest('hex'), sourceSha256: sourceHash.digest('hex'), unsealed: unsealed?.lines ?? [], redactions: request.redactions ?? [] },
    request.env,
  );
  await sink.commit();
  if (request.checkpointPath === null) return checkpoint;
  try {
    await writeFile(request.checkpointPath, formatCheckpoint(checkpoint));
  } catch (error) {
    throw unwritable(request.checkpointDisplay, error);
  }
  return checkpoint;
}

/** A seal of no record protects nothing: never a success. */
function nothingSealed(display: string, leftOut: number): InputError {
  const why = leftOut > 0 ? `none of its lines is a record (${leftOut} line(s) left out)` : 'it holds no record (it is empty or blank)';
  return new InputError(display, null, 'seal-empty', `${display}: nothing to seal: ${why}`);
}

/** A sink that writes to `<path>.partial` and renames it into place on commit, so a failed seal leaves no file. */
export async function fileSink(path: string, display: string): Promise<SealSink> {
  const temp = `${path}.partial`;
  let handle: FileHandle;
  try {
    handle = await open(temp, 'w');
  } catch (error) {
    throw unwritable(display, error);
  }
  let closed = false;
  const close = async () => {
    if (!closed) await handle.close();
    closed = true;
  };
  return {
    write: async (bytes) => {
      if (bytes.length === 0) return;
      await handle.write(bytes).catch((error: unknown) => {
        throw unwritable(display, error);
      });
    },
    commit: async () => {
      await close();
      await rename(temp, path).catch((error: unknown) => {
        throw unwritable(display, error);
      });
    },
    abort: async () => {
      await close();
      await rm(temp, { force: true });
    },
  };
}

async function* teeHash(chunks: AsyncIterable<Buffer>, hash: Hash): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    hash.update(chunk);
    yield chunk;
  }
}

async function hashFile(path: string, hash: Hash, display: string): Promise<void> {
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  } catch (error) {
    throw unreadable(display, error);
  }
}
