import { excerpt } from './json-lines.js';
import type { DetectSample, ParseInput, RecordSink } from './types.js';

/** A whole-document format's text and parsed value. */
export interface ParsedDocument {
  readonly text: string;
  readonly value: unknown;
}

/**
 * Reads the file as one JSON document (capped by the limits' document size).
 * A file that does not parse becomes one `malformed-record` at line 1 and null.
 */
export async function parseDocument(input: ParseInput, sink: RecordSink): Promise<ParsedDocument | null> {
  const bytes = await input.bytes();
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { text, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'not one JSON document' : 'could not be read as JSON';
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `${reason}: "${excerpt(text)}"` });
    return null;
  }
}

/**
 * The start of a JSON document too large to be parsed for detection (the
 * sample's `document` is only set for files that fit the head), or null.
 * Detectors of one-document formats match their opening keys in it.
 */
export function largeDocumentHead(sample: DetectSample): string | null {
  if (sample.document !== undefined) return null;
  const text = sample.head.subarray(0, 64 * 1024).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (!text.startsWith('{') && !text.startsWith('[')) return null;
  // A complete small file that did not parse is not a large document.
  return sample.head.length >= 1024 * 1024 ? text : null;
}
