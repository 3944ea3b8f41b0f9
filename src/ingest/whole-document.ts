import { excerpt } from './json-lines.js';
import type { ParseInput, RecordSink } from './types.js';

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
