/** One line of a sealed file as raw bytes (no decoding: the chain covers bytes, not text). */
export interface RawLine {
  /** The line without its "\n", or null when it was longer than the cap (not kept in memory). */
  readonly bytes: Buffer | null;
  /** Length of the line in bytes, without the "\n". */
  readonly length: number;
  /** False for a last line that has no "\n". */
  readonly terminated: boolean;
}

const NEWLINE = 0x0a;

/**
 * Splits a byte stream on "\n" and nothing else: unlike the trace line reader,
 * a CR, a BOM or invalid UTF-8 stays in the line, because every byte of a
 * sealed file is part of what the chain checks. A line longer than `maxBytes`
 * is reported with bytes = null and not held in memory.
 */
export async function* splitRawLines(chunks: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<RawLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  for await (const chunk of chunks) {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      pendingBytes += piece.length;
      if (!skipping && pendingBytes > maxBytes) {
        skipping = true;
        pending = [];
      }
      if (!skipping && piece.length > 0) pending.push(piece);
      if (nl === -1) break;
      yield { bytes: skipping ? null : joined(pending, pendingBytes), length: pendingBytes, terminated: true };
      pending = [];
      pendingBytes = 0;
      skipping = false;
      start = nl + 1;
    }
    // Copy the unfinished line's piece so the chunk itself can be released.
    if (pending.length > 0 && pending[pending.length - 1]!.buffer === chunk.buffer) {
      pending[pending.length - 1] = Buffer.from(pending[pending.length - 1]!);
    }
  }
  if (pendingBytes > 0 || skipping) {
    yield { bytes: skipping ? null : joined(pending, pendingBytes), length: pendingBytes, terminated: false };
  }
}

function joined(parts: Buffer[], total: number): Buffer {
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
}
