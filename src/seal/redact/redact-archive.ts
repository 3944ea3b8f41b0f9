import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../../errors.js';
import { unreadable } from '../../io/file-errors.js';
import type { ReadLimits } from '../../io/limits.js';
import type { RedactionReceipt } from '../checkpoint.js';
import { Redactor } from './redact.js';
import { receiptOf, redactDocument, redactLine, UTF8, writeWhole } from './redact-units.js';

const NEWLINE = Buffer.from('\n');

/** An archive: each member that is UTF-8 text redacted, the archive written again with the same member names and order. */
export async function redactZip(path: string, display: string, outPath: string, limits: ReadLimits): Promise<RedactionReceipt[]> {
  const { unzipSync, zipSync } = await import(/* webpackMode: "eager" */ 'fflate');
  const info = await stat(path).catch((error: unknown) => {
    throw unreadable(display, error);
  });
  if (info.size > limits.maxDocumentBytes) throw new InputError(display, null, 'seal-too-large', `${display}: cannot be redacted: larger than ${limits.maxDocumentBytes} bytes`);
  let members: Record<string, Uint8Array>;
  let total = 0;
  try {
    members = unzipSync(await readFile(path), {
      filter: (file) => {
        total += file.originalSize;
        if (total > limits.maxDocumentBytes) throw new Error(`the members inflate to more than ${limits.maxDocumentBytes} bytes`);
        return true;
      },
    });
  } catch (error) {
    throw new InputError(display, null, 'redact-unreadable-archive', `${display}: cannot be scanned for secrets: not a readable zip archive (${error instanceof Error ? error.message : 'unknown error'})`);
  }
  const redactor = new Redactor();
  const receipts: RedactionReceipt[] = [];
  const out: Record<string, Uint8Array> = Object.create(null) as Record<string, Uint8Array>;
  for (const name of Object.keys(members)) {
    const member = redactMember(members[name]!, name, redactor, limits, display);
    receipts.push(...member.receipts);
    out[name] = member.receipts.length === 0 ? members[name]! : new Uint8Array(member.bytes);
  }
  if (receipts.length > 0) {
    // A fixed time stamp: the same trace gives the same redacted archive, byte for byte.
    const zipped = zipSync(out, { level: 6, mtime: new Date(Date.UTC(1980, 0, 1)) });
    await writeWhole(outPath, zipped, display);
  }
  return receipts;
}

/** One archive member: a JSON document whole, else line by line. */
function redactMember(bytes: Uint8Array, name: string, redactor: Redactor, limits: ReadLimits, display: string): { bytes: Buffer; receipts: RedactionReceipt[] } {
  let text: string | null = null;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = null;
  }
  const document = text === null ? null : redactDocument(text, redactor, name);
  if (document !== null) return document;
  const parts: Buffer[] = [];
  const receipts: RedactionReceipt[] = [];
  let line = 0;
  for (const raw of splitBytes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length))) {
    line += 1;
    if (raw.length > limits.maxDocumentBytes) throw new InputError(display, null, 'redact-line-too-long', `${display}:${name}:${line}: cannot be scanned for secrets: the line is too long`);
    const done = redactLine(redactor, raw.bytes);
    parts.push(done.bytes);
    if (raw.terminated) parts.push(NEWLINE);
    for (const hit of done.hits) receipts.push(receiptOf(hit, line, name));
  }
  return { bytes: Buffer.concat(parts), receipts };
}

/** The lines of a buffer held whole (split on LF only; CR stays). */
function* splitBytes(bytes: Buffer): Generator<{ bytes: Buffer; length: number; terminated: boolean }> {
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    yield { bytes: bytes.subarray(start, end), length: end - start, terminated: nl !== -1 };
    start = end + 1;
  }
}
