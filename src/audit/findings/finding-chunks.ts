/** Finding chunk files: sorted findings written as JSON lines, and read back one at a time. */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { LineSplitter } from '../../io/line-splitter.js';
import type { Finding } from '../../model/finding.js';

/** Bytes read from a chunk file at a time, and written to one at a time. */
const READ_BYTES = 16 * 1024;
const WRITE_CHARS = 1024 * 1024;

/** Writes the findings to a new file (mode 0600, never over an existing one); returns how many. */
export function writeChunk(path: string, findings: Iterable<Finding>): number {
  const fd = openSync(path, 'wx', 0o600);
  let count = 0;
  try {
    let text = '';
    for (const finding of findings) {
      text += `${JSON.stringify(finding)}\n`;
      count += 1;
      if (text.length >= WRITE_CHARS) {
        writeFully(fd, text);
        text = '';
      }
    }
    if (text.length > 0) writeFully(fd, text);
  } finally {
    closeSync(fd);
  }
  return count;
}

/** The findings of one chunk file, one JSON line at a time (split by the reader of trace files). */
export function* readChunk(path: string): Generator<Finding, void, undefined> {
  const fd = openSync(path, 'r');
  try {
    const facts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
    // No line limit: the lines are our own findings. The block is reused by the next
    // read; the splitter copies the unfinished line it keeps.
    const lines = new LineSplitter(Number.MAX_SAFE_INTEGER, facts);
    const block = Buffer.allocUnsafe(READ_BYTES);
    for (let n = readSync(fd, block, 0, block.length, null); n > 0; n = readSync(fd, block, 0, block.length, null)) {
      for (const event of lines.split(block.subarray(0, n))) {
        if (event.type === 'bad-line') throw new Error(`finding chunk ${path} has a bad line ${event.line}`);
        yield JSON.parse(event.text) as Finding;
      }
    }
    if (lines.end() !== null) throw new Error(`finding chunk ${path} ends in the middle of a line`);
  } finally {
    closeSync(fd);
  }
}

function writeFully(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** A sorted sequence of a finding store: findings in memory, or a chunk file and how many it holds. */
export type Source = { readonly kind: 'memory'; readonly findings: Finding[] } | { readonly kind: 'file'; readonly path: string; readonly count: number };

/** Reads a source from its start. */
export function openSource(source: Source): Iterator<Finding> {
  return source.kind === 'file' ? readChunk(source.path) : source.findings.values();
}
