import { limitText } from '../../io/limits.js';
import type { ParseInput, RecordSink } from '../types.js';

/**
 * The file's bytes, for a document that must be read whole (a format or shape
 * the streaming reader cannot walk), or null past `limits.max-document-bytes`:
 * then the file is one `malformed-record` at line 1 naming the limit and the
 * setting, and reading stops as soon as the limit is passed (never an
 * internal error, never more than the limit in memory).
 */
export async function readWhole(input: ParseInput, sink: RecordSink, what: string): Promise<Buffer | null> {
  const limit = input.limits.maxDocumentBytes;
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of input.chunks()) {
    total += chunk.length;
    if (total > limit) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `${what} is longer than the ${limitText('maxDocumentBytes', limit)}, which this format reads whole; it was not read` });
      return null;
    }
    // A chunk is valid only until the next is asked for: keep a copy.
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts, total);
}
