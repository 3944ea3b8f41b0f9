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
 * The whole body of a request, inflated when Content-Encoding is gzip, and never
 * more than `maxBytes` either as sent or as inflated (a zip bomb stops at the cap).
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') throw new BodyError(415, `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported (gzip or none)`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyError(413, `the body is ${declared} bytes; the receiver takes at most ${maxBytes}`);
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      // Over the cap: stop keeping it, let the rest drain so that the 413 can be sent (the connection closes after it).
      req.off('data', onData);
      req.resume();
      chunks.length = 0;
      reject(new BodyError(413, `the body is longer than ${maxBytes} bytes, the most the receiver takes`));
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
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
