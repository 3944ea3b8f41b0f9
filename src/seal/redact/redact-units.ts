import { open } from 'node:fs/promises';
import { unwritable } from '../../io/file-errors.js';
import type { RedactionReceipt } from '../checkpoint.js';
import type { Redactor, Replacement } from './redact.js';

export const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** One line, redacted: UTF-8 text as text; other bytes as Latin-1, so that every byte but the replaced ones stays. */
export function redactLine(redactor: Redactor, bytes: Buffer): { bytes: Buffer; hits: Replacement[] } {
  let text: string;
  let encoding: BufferEncoding = 'utf8';
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = bytes.toString('latin1');
    encoding = 'latin1';
  }
  const { text: out, hits } = redactor.line(text);
  return { bytes: hits.length === 0 ? bytes : Buffer.from(out, encoding), hits };
}

/** The receipt of one replacement; a value whose JSON path is unknown is placed by its line. */
export function receiptOf(hit: Replacement, line: number, entry: string | null): RedactionReceipt {
  return {
    ...(entry === null ? {} : { entry }),
    line,
    field_path: hit.fieldPath ?? `line ${line}`,
    rule_id: hit.ruleId,
    original_len: hit.originalLen,
    token: hit.token,
  };
}

/**
 * A whole JSON document (an object or list over several lines, as Langfuse and
 * Inspect export): redacted as one unit, so its strings are read as the audit
 * reads them; each receipt's line is where its token stands. Null when the text
 * is not one JSON document.
 */
export function redactDocument(text: string, redactor: Redactor, entry: string | null): { bytes: Buffer; receipts: RedactionReceipt[] } | null {
  const head = text.trimStart()[0];
  if ((head !== '{' && head !== '[') || parseWhole(text) === undefined) return null;
  const { text: out, hits } = redactor.line(text);
  const receipts = hits.map((hit) => {
    const at = out.indexOf(hit.token);
    let line = 1;
    for (let i = out.indexOf('\n'); i !== -1 && i < at; i = out.indexOf('\n', i + 1)) line += 1;
    return receiptOf(hit, line, entry);
  });
  return { bytes: Buffer.from(out, 'utf8'), receipts };
}

export async function writeWhole(path: string, bytes: Uint8Array, display: string): Promise<void> {
  const handle = await open(path, 'w').catch((error: unknown) => {
    throw unwritable(display, error);
  });
  try {
    await handle.write(bytes);
  } finally {
    await handle.close();
  }
}

export function parseWhole(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
