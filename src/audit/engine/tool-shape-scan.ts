import { toolShapesIn } from '../../ingest/facts/tool-shape-text.js';
import type { ReadLimits } from '../../io/limits.js';
import { openTraceFile } from '../../io/trace-file.js';

/** How much of a file the look for tool-shaped content reads at most. */
export const SCAN_BYTES = 64 * 1024 * 1024;
/** Distinct labels named in a message. */
const NAMED = 4;

/** What a look through a file's text found: tool-shaped places, by label, and the first line holding one. */
export interface ToolShapeScan {
  readonly count: number;
  readonly firstLine: number;
  /** Label → places, in first-seen order. */
  readonly labels: ReadonlyMap<string, number>;
  /** A zip archive (an Inspect `.eval`): its text was not searched. */
  readonly archive: boolean;
  /** The look stopped at SCAN_BYTES. */
  readonly cut: boolean;
  /** The file's text is empty, or white space only (a writer that wrote nothing). */
  readonly blank?: boolean;
}

/**
 * Looks through the text of a file a parser claimed and read no tool call from
 * (any format: the look is on text, so it holds for every parser, the ones
 * added later included), at most SCAN_BYTES of it.
 */
export async function scanToolShapes(path: string, display: string, limits: ReadLimits): Promise<ToolShapeScan> {
  const opened = await openTraceFile(path, display, limits);
  const labels = new Map<string, number>();
  if (opened.sample.head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return { count: 0, firstLine: 0, labels, archive: true, cut: false };
  let count = 0;
  let firstLine = 0;
  let bytes = 0;
  let blank = true;
  for await (const batch of opened.input.lineBatches()) {
    for (const event of batch) {
      if (event.type !== 'line') continue;
      bytes += event.text.length + 1;
      if (blank && event.text.trim() !== '') blank = false;
      for (const label of toolShapesIn(event.text)) {
        if (count === 0) firstLine = event.line;
        count += 1;
        labels.set(label, (labels.get(label) ?? 0) + 1);
      }
    }
    if (bytes >= SCAN_BYTES) return { count, firstLine, labels, archive: false, cut: true };
  }
  return { count, firstLine, labels, archive: false, cut: false, ...(blank ? { blank } : {}) };
}

/** The labels as words: `tool_calls ×8, fenced bash block ×4`, the first few named and the rest counted. */
export function labelWords(labels: ReadonlyMap<string, number>): string {
  const entries = [...labels];
  const named = entries.slice(0, NAMED).map(([label, n]) => `${label} ×${n}`);
  return entries.length > NAMED ? `${named.join(', ')} and ${entries.length - NAMED} more kind(s)` : named.join(', ');
}
