import type { LineEvent } from './line-splitter.js';
import type { ReadLimits } from './limits.js';

// What io/ hands to a parser (ingest/<format>): the start of the file for detection,
// then the file itself, as lines or as bytes. ingest/types.ts re-exports both.

/** The start of a file, for detection: raw head bytes and the first parsed JSON lines. */
export interface DetectSample {
  readonly file: string;
  readonly head: Buffer;
  /** First few non-blank lines that parsed as JSON (may be empty). */
  readonly jsonLines: readonly unknown[];
  /** The whole head parsed as one JSON document, when it fits and parses; undefined otherwise. */
  readonly document: unknown;
}

export interface ParseInput {
  readonly file: string;
  readonly limits: ReadLimits;
  /**
   * The file's lines (streamed), in arrays, one per chunk read: the one line API (one
   * await per chunk, which the span-log path measured faster than one per line).
   * `eachLine` gives them one at a time.
   */
  lineBatches(): AsyncIterable<LineEvent[]>;
  /** The detection sample's first bytes (up to 1 MiB, without a BOM): to choose how to read without reading. */
  readonly head?: Buffer;
  /**
   * The file's bytes in chunks (gzip inflated), for streaming readers such as
   * src/io/json-stream/: a chunk is valid only until the next one is asked for.
   */
  chunks(): AsyncIterable<Buffer>;
  /** The file as one buffer (for whole-document formats), capped by the limits. */
  bytes(): Promise<Buffer>;
}

/** The lines of `input.lineBatches()` one at a time, for readers that read a few lines or stop early. */
export async function* eachLine(input: Pick<ParseInput, 'lineBatches'>): AsyncGenerator<LineEvent, void, undefined> {
  for await (const batch of input.lineBatches()) yield* batch;
}
