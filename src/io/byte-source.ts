import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { limitText, type ReadLimits, type SizeLimit } from './limits.js';

const GZIP_MAGIC = [0x1f, 0x8b] as const;
const CHUNK = 1024 * 1024;

/** What went wrong while streaming bytes (the bytes read before it are still good). */
export interface ByteSourceProblem {
  readonly code: 'gzip-truncated' | 'gzip-corrupt' | 'inflate-cap' | 'file-cap' | 'read-error';
  readonly message: string;
}

export interface ByteSource {
  readonly gzip: boolean;
  /**
   * Chunks of the (inflated) file. Never throws: a failure ends the stream and sets `problem`.
   * With `reuse`, a plain file is read into one buffer over and over: each chunk is valid
   * only until the next is asked for, so the caller must copy what it keeps (the line
   * splitter does). That keeps the reading memory at one chunk instead of leaving a
   * megabyte per chunk for the garbage collector to find.
   */
  chunks(options?: { readonly reuse?: boolean }): AsyncGenerator<Buffer>;
  problem: ByteSourceProblem | null;
}

/**
 * Peeks the first bytes to tell gzip from plain; does not read the file whole.
 * Synchronous, like the plain reads below: a local file's open and read take
 * microseconds, and a round trip through the thread pool per call was most of
 * the cost of an audit of many small files.
 */
export async function isGzipFile(path: string): Promise<boolean> {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const bytesRead = readSync(fd, head, 0, 2, 0);
    return bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  } finally {
    closeSync(fd);
  }
}

/** A size limit and the setting it comes from (named in the problem past it). */
export interface ByteCap {
  readonly bytes: number;
  readonly setting: SizeLimit;
}

/**
 * Streams a file's bytes, inflating gzip (multi-member too) up to the inflate cap
 * (limits.max-inflated-bytes); a plain file larger than limits.max-file-bytes is not
 * read at all. `caps` replaces either cap (a whole-document read is capped by
 * max-document-bytes; the detection sample reads only its head, uncapped).
 */
export async function openByteSource(path: string, limits: ReadLimits, caps: { readonly plain?: ByteCap | null; readonly inflated?: ByteCap } = {}): Promise<ByteSource> {
  const gzip = await isGzipFile(path);
  const plainCap = caps.plain === undefined ? { bytes: limits.maxFileBytes, setting: 'maxFileBytes' as const } : caps.plain;
  const inflateCap = caps.inflated ?? { bytes: limits.maxInflatedBytes, setting: 'maxInflatedBytes' as const };
  const source: ByteSource = {
    gzip,
    problem: null,
    async *chunks(options) {
      if (!gzip) {
        yield* readPlain(path, options?.reuse === true, source, plainCap);
        return;
      }
      const raw = createReadStream(path, { highWaterMark: CHUNK });
      const inflater = createGunzip({ chunkSize: 64 * 1024 });
      raw.on('error', (error) => inflater.destroy(error));
      raw.pipe(inflater);
      let total = 0;
      try {
        for await (const chunk of inflater) {
          const buffer = chunk as Buffer;
          total += buffer.length;
          if (total > inflateCap.bytes) {
            const keep = buffer.length - (total - inflateCap.bytes);
            if (keep > 0) yield buffer.subarray(0, keep);
            source.problem = {
              code: 'inflate-cap',
              message: `inflated size passed the ${limitText(inflateCap.setting, inflateCap.bytes)}; reading stopped there`,
            };
            break;
          }
          yield buffer;
        }
      } catch (error) {
        const text = errorText(error);
        source.problem = /unexpected end/i.test(text)
          ? { code: 'gzip-truncated', message: 'the gzip stream ends early (file cut short)' }
          : { code: 'gzip-corrupt', message: `the gzip stream is corrupt (${text})` };
      } finally {
        raw.destroy();
        inflater.destroy();
      }
    },
  };
  return source;
}

/** A plain file's bytes in chunks of up to CHUNK bytes, read with one file descriptor (synchronous reads: see isGzipFile). */
async function* readPlain(path: string, reuse: boolean, source: ByteSource, cap: ByteCap | null): AsyncGenerator<Buffer> {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    // A small file gets a buffer of its size (and one byte to see its end in the same read):
    // a megabyte for each of 100,000 one-line files kept the garbage collector busy.
    const { size } = fstatSync(fd);
    if (cap !== null && size > cap.bytes) {
      const what = cap.setting === 'maxDocumentBytes' ? 'it was not read as one JSON document' : 'it was not read';
      source.problem = { code: 'file-cap', message: `file of ${size} bytes is larger than the ${limitText(cap.setting, cap.bytes)}; ${what}` };
      return;
    }
    const length = Math.max(1, Math.min(CHUNK, size + 1));
    let buffer = Buffer.allocUnsafe(length);
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, length, null);
      if (bytesRead === 0) break;
      yield buffer.subarray(0, bytesRead);
      if (!reuse) buffer = Buffer.allocUnsafe(length);
    }
  } catch (error) {
    source.problem = { code: 'read-error', message: errorText(error) };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function errorText(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error.code === 'Z_BUF_ERROR' ? 'unexpected end of file' : `${error.code}`;
  }
  return error instanceof Error ? error.message.split('\n')[0]! : 'unknown error';
}
