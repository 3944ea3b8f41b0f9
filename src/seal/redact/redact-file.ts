import { open, readFile, rm, stat } from 'node:fs/promises';
import { InputError } from '../../errors.js';
import { openByteSource, type ByteSource } from '../../io/byte-source.js';
import { unreadable, unwritable } from '../../io/file-errors.js';
import type { ReadLimits } from '../../io/limits.js';
import { MAX_RECEIPTS, type RedactionReceipt } from '../checkpoint.js';
import { splitRawLines } from '../raw-lines.js';
import { locate, Redactor, type Replacement } from './redact.js';
import { redactZip } from './redact-archive.js';
import { parseWhole, receiptOf, redactDocument, redactLine, UTF8, writeWhole } from './redact-units.js';

/** What redaction made of a trace: the file to seal (the trace itself when nothing was replaced) and the receipts. */
export interface Redacted {
  readonly path: string;
  readonly receipts: RedactionReceipt[];
}

/** Largest redacted text read back whole to find the JSON paths of a document's replaced values. */
const LOCATE_MAX_BYTES = 32 * 1024 * 1024;
const ZIP_MAGIC = Buffer.from('PK\x03\x04', 'latin1');

/**
 * Replaces every secret the audit's detectors find in the trace at `path`
 * (line by line; a `.gz` trace read inflated; each member of a zip archive
 * such as an Inspect `.eval`), writing the result to `outPath`, and returns
 * one receipt per replaced value. A trace with nothing to replace is returned
 * as it is (no copy). A line longer than `limits.maxDocumentBytes` cannot be
 * scanned: an error, so that nothing unscanned is sealed in place of a redaction.
 */
export async function redactToFile(path: string, display: string, outPath: string, limits: ReadLimits): Promise<Redacted> {
  const receipts = (await isZip(path, display)) ? await redactZip(path, display, outPath, limits) : await redactText(path, display, outPath, limits);
  if (receipts.length > MAX_RECEIPTS) {
    await rm(outPath, { force: true });
    throw new InputError(display, null, 'redact-too-many', `${display}: cannot be sealed redacted: more than ${MAX_RECEIPTS} secrets`);
  }
  if (receipts.length === 0) {
    await rm(outPath, { force: true });
    return { path, receipts };
  }
  return { path: outPath, receipts };
}

async function isZip(path: string, display: string): Promise<boolean> {
  try {
    const handle = await open(path, 'r');
    try {
      const head = Buffer.alloc(4);
      const { bytesRead } = await handle.read(head, 0, 4, 0);
      return bytesRead === 4 && head.equals(ZIP_MAGIC);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(display, error);
  }
}



/** Redacts lines from `chunks` into `write`; returns the replacements with their line numbers. */
async function redactLines(chunks: AsyncIterable<Buffer>, redactor: Redactor, maxBytes: number, display: string, write: (bytes: Buffer) => Promise<void>) {
  const found: Array<{ hit: Replacement; line: number }> = [];
  let line = 0;
  for await (const raw of splitRawLines(chunks, maxBytes)) {
    line += 1;
    if (raw.bytes === null) throw new InputError(display, line, 'redact-line-too-long', `${display}:${line}: cannot be scanned for secrets: the line is longer than ${maxBytes} bytes`);
    const { bytes, hits } = redactLine(redactor, raw.bytes);
    for (const hit of hits) found.push({ hit, line });
    await write(raw.terminated ? Buffer.concat([bytes, Buffer.from('\n')]) : bytes);
  }
  return found;
}


/** The file's text when it is a plain file small enough to be read whole as a JSON document, else null. */
async function wholeText(path: string): Promise<string | null> {
  const info = await stat(path);
  if (info.size > LOCATE_MAX_BYTES) return null;
  const bytes = await readFile(path);
  const first = bytes.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf);
  if (first !== 0x7b && first !== 0x5b) return null;
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** A text trace (plain or gzip): a JSON document whole, anything else line by line, into `outPath`. */
async function redactText(path: string, display: string, outPath: string, limits: ReadLimits): Promise<RedactionReceipt[]> {
  const text = await wholeText(path).catch((error: unknown) => {
    throw unreadable(display, error);
  });
  const document = text === null ? null : redactDocument(text, new Redactor(), null);
  if (document !== null) {
    if (document.receipts.length > 0) await writeWhole(outPath, document.bytes, display);
    return document.receipts;
  }
  let source: ByteSource;
  try {
    source = await openByteSource(path, limits);
  } catch (error) {
    throw unreadable(display, error);
  }
  const handle = await open(outPath, 'w').catch((error: unknown) => {
    throw unwritable(display, error);
  });
  let found: Array<{ hit: Replacement; line: number }>;
  try {
    found = await redactLines(source.chunks(), new Redactor(), limits.maxDocumentBytes, display, async (bytes) => void (await handle.write(bytes)));
  } finally {
    await handle.close();
  }
  if (source.problem) throw new InputError(display, null, 'unreadable', `${display}: cannot be redacted: ${source.problem.message}`);
  // A JSON document over several lines: its replaced values are found by their tokens in the whole document.
  if (found.some((f) => f.hit.fieldPath === null) && (await stat(outPath)).size <= LOCATE_MAX_BYTES) {
    locate(parseWhole(await readFile(outPath, 'utf8')), found.map((f) => f.hit));
  }
  return found.map(({ hit, line }) => receiptOf(hit, line, null));
}





