import type { IncomingMessage } from 'node:http';
import { gunzip } from 'node:zlib';

/** Why a body could not be read: answered 413 (too large), 415 (encoding) or 400 (broken gzip). */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The bytes of request bodies held at once, across requests. Past `limit` a reading
 * request pauses (TCP holds its sender back) until bytes are given back, except the
 * earliest reader, which always goes on: one request always completes, so readers
 * that each hold part of the budget never wait on one another.
 */
export class BodyBudget {
  private used = 0;
  private readonly readers: object[] = [];
  private readonly waiting: Array<() => void> = [];
  constructor(readonly limit: number) {}

  get held(): number {
    return this.used;
  }

  /** Counts `bytes` as held by `reader`; resolves once it may read on. */
  async take(reader: object, bytes: number): Promise<void> {
    if (!this.readers.includes(reader)) this.readers.push(reader);
    this.used += bytes;
    while (this.used > this.limit && this.readers[0] !== reader) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** `reader` stops reading (its bytes stay held until `give`). */
  done(reader: object): void {
    const at = this.readers.indexOf(reader);
    if (at !== -1) this.readers.splice(at, 1);
    this.wake();
  }

  give(bytes: number): void {
    this.used -= bytes;
    this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/**
 * The whole body of a request, inflated when Content-Encoding is gzip, and never
 * more than `maxBytes` either as sent or as inflated (a zip bomb stops at the cap).
 * With a `budget`, the bytes read are held in it (the caller gives them back once the
 * request is handled) and reading pauses while it is spent.
 */
export async function readBody(req: IncomingMessage, maxBytes: number, budget?: BodyBudget): Promise<{ body: Buffer; release: () => void }> {
  let held = 0;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    budget?.give(held);
  };
  try {
    const body = await readWhole(req, maxBytes, budget ? (bytes) => ((held += bytes), budget.take(req, bytes)) : null);
    return { body, release };
  } catch (error) {
    release();
    throw error;
  } finally {
    budget?.done(req);
  }
}

async function readWhole(req: IncomingMessage, maxBytes: number, take: ((bytes: number) => Promise<void>) | null): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') throw new BodyError(415, `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported (gzip or none)`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyError(413, `the body is ${declared} bytes; the receiver takes at most ${maxBytes}`);
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        if (take) {
          req.pause();
          void take(chunk.length).then(() => req.resume());
        }
        return;
      }
      // Over the cap: stop keeping it, let the rest drain so that the 413 can be sent (the connection closes after it).
      req.off('data', onData);
      req.resume();
      chunks.length = 0;
      reject(new BodyError(413, `the body is longer than ${maxBytes} bytes, the most the receiver takes`));
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
    // A client gone before the end: never a hung read (a promise settled by 'end' ignores this).
    req.once('close', () => reject(new BodyError(400, 'the client closed the connection before the body ended')));
  });
  if (encoding === 'identity') return raw;
  return new Promise<Buffer>((resolve, reject) => {
    gunzip(raw, { maxOutputLength: maxBytes }, (error, inflated) => {
      if (!error) resolve(inflated);
      else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') reject(new BodyError(413, `the body inflates to more than ${maxBytes} bytes, the most the receiver takes`));
      else reject(new BodyError(400, `the gzip body is broken: ${error.message.split('\n')[0]}`));
    });
  });
}
