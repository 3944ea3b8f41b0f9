import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { buildCheckpoint, formatCheckpoint, type Checkpoint, type RedactionReceipt } from './checkpoint.js';
import { LinkWriter, ZERO_DIGEST } from './layout.js';
import { unreadable } from '../io/file-errors.js';
import type { SealSink } from './seal-file.js';

/** Bytes per link: 48 KiB of source, 64 KiB of base64 in the link. */
export const BYTES_CHUNK = 48 * 1024;

export interface SealBytesRequest {
  readonly path: string;
  readonly display: string;
  readonly sink: SealSink;
  /** Where the checkpoint goes (null: nowhere, the caller says so). */
  readonly checkpointPath: string | null;
  readonly checkpointDisplay: string;
  /** The most bytes sealed; a larger file is refused. */
  readonly maxBytes: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Receipts of the values replaced before sealing (the file at `path` is already redacted). */
  readonly redactions?: readonly RedactionReceipt[];
}

/**
 * Seals a whole document (a JSON trace, an .eval archive, a YAML cassette:
 * anything that is not one record per line) as a chain over its bytes: link
 * n holds `{"b64":"<base64 of bytes n·48 KiB …>","offset":<n·48 KiB>}`, in
 * canonical JSON, chained exactly like records (docs/sealing.md), so the same
 * verifier checks it, and the decoded chunks, joined, are the file byte for
 * byte (source_sha256). The checkpoint says `"kind": "bytes"`. Streaming: one
 * chunk in memory.
 */
export async function sealBytes(request: SealBytesRequest): Promise<Checkpoint> {
  const { path, display, sink } = request;
  const sourceHash = createHash('sha256');
  const sealedHash = createHash('sha256');
  const links = new LinkWriter(BYTES_CHUNK * 2);
  let prev = ZERO_DIGEST;
  let records = 0;
  let offset = 0;
  try {
    let stream: AsyncIterable<Buffer>;
    try {
      stream = createReadStream(path, { highWaterMark: BYTES_CHUNK });
    } catch (error) {
      throw unreadable(display, error);
    }
    let pending: Buffer = Buffer.alloc(0);
    const emit = async (chunk: Buffer) => {
      prev = links.append(prev, records, `{"b64":"${chunk.toString('base64')}","offset":${offset}}`);
      records += 1;
      offset += chunk.length;
      const bytes = links.take();
      sealedHash.update(bytes);
      await sink.write(bytes);
    };
    try {
      for await (const piece of stream) {
        sourceHash.update(piece);
        if (offset + pending.length + piece.length > request.maxBytes) {
          throw new InputError(display, null, 'seal-too-large', `${display}: cannot be sealed: larger than ${request.maxBytes} bytes`);
        }
        pending = pending.length === 0 ? piece : Buffer.concat([pending, piece]);
        while (pending.length >= BYTES_CHUNK) {
          await emit(pending.subarray(0, BYTES_CHUNK));
          pending = pending.subarray(BYTES_CHUNK);
        }
      }
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw unreadable(display, error);
    }
    if (pending.length > 0) await emit(pending);
    if (records === 0) throw new InputError(display, null, 'seal-empty', `${display}: nothing to seal: the file is empty`);
  } catch (error) {
    await sink.abort();
    throw error;
  }
  const checkpoint = buildCheckpoint(
    { kind: 'bytes', mode: 'jcs', records, finalDigest: prev, sealedSha256: sealedHash.digest('hex'), sourceSha256: sourceHash.digest('hex'), redactions: request.redactions ?? [] },
    request.env,
  );
  await sink.commit();
  if (request.checkpointPath === null) return checkpoint;
  try {
    await writeFile(request.checkpointPath, formatCheckpoint(checkpoint));
  } catch {
    throw new InputError(request.checkpointDisplay, null, 'unwritable', `${request.checkpointDisplay}: cannot write`);
  }
  return checkpoint;
}
