/**
 * A routed thread's half: the batches of lines the router sends become the
 * ParseInput a format parses, the same line events the line splitter would give
 * for those lines. Each batch is acknowledged once parsed, so the router holds back
 * when a thread falls behind (bounded memory).
 */
import { isUtf8 } from 'node:buffer';
import type { ParseInput } from '../../ingest/types.js';
import type { ReadLimits } from '../../io/limits.js';
import { decodeLine, tooLongLine, type LineEvent } from '../../io/line-splitter.js';
import type { LineBatch } from './line-router.js';

const NEWLINE = 0x0a;

/** Batches in arrival order; `null` ends the file. */
export class BatchQueue {
  readonly #items: Array<LineBatch | null> = [];
  #wake: (() => void) | null = null;

  push(item: LineBatch | null): void {
    this.#items.push(item);
    this.#wake?.();
    this.#wake = null;
  }

  async *batches(): AsyncGenerator<LineBatch> {
    for (;;) {
      while (this.#items.length === 0) await new Promise<void>((resolve) => (this.#wake = resolve));
      const item = this.#items.shift()!;
      if (item === null) return;
      yield item;
    }
  }
}

export function routedInput(file: string, limits: ReadLimits, queue: BatchQueue, ack: () => void): ParseInput {
  const input: ParseInput = {
    file,
    limits,
    async *lineBatches() {
      for await (const batch of queue.batches()) {
        yield lineEvents(batch, limits.maxLineBytes);
        ack();
      }
    },
    bytes() {
      return Promise.reject(new Error('a routed file is read as lines, not as one document'));
    },
    async *chunks() {
      throw new Error('a routed file is read as lines, not as one document');
    },
  };
  return input;
}

/** The line events of one batch, in line order. */
export function lineEvents(batch: LineBatch, maxLineBytes: number): LineEvent[] {
  const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  const lines = batch.lines;
  const last = lines.length - 1;
  const lastLine = Math.max(lines[last] ?? 0, ...batch.tooLong.map(([line]) => line));
  const events: LineEvent[] = [];
  if (isUtf8(bytes)) {
    // One decode for the batch, as the line splitter's fast path does.
    const texts = bytes.toString('utf8').split('\n');
    for (let i = 0; i <= last; i += 1) {
      const raw = texts[i]!;
      const line = lines[i]!;
      events.push({ type: 'line', line, text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, terminated: !(batch.unterminated && line === lastLine) });
    }
  } else {
    let from = 0;
    for (let i = 0; i <= last; i += 1) {
      const nl = bytes.indexOf(NEWLINE, from);
      const line = lines[i]!;
      events.push(decodeLine(line, bytes.subarray(from, nl), !(batch.unterminated && line === lastLine)));
      from = nl + 1;
    }
  }
  if (batch.tooLong.length === 0) return events;
  for (const [line, length] of batch.tooLong) events.push(tooLongLine(line, length, maxLineBytes, !(batch.unterminated && line === lastLine)));
  return events.sort((a, b) => a.line - b.line);
}
