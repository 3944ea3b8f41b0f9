import type { JsonObject } from '../fields.js';
import { excerpt, forEachJsonLine } from '../json-lines.js';
import type { ParseInput, RecordSink } from '../types.js';
import type { OtelSpan } from './span.js';
import { spanLineFinder } from './span-lines.js';
import { TraceBuffer } from './trace-buffer.js';

/** One container family (OTLP, Jaeger): how to recognise it and list its spans. */
export interface ContainerSpec {
  readonly accepts: (value: unknown) => value is JsonObject;
  /** Calls onSpan for every span; returns how many spans were unusable. */
  readonly read: (container: JsonObject, lineOf: (rawSpanId: unknown) => number, onSpan: (span: OtelSpan) => void) => number;
  /** Keys holding a span's own id, to place spans of a document on lines. */
  readonly idKeys: readonly string[];
  /** For messages: what a line should have been. */
  readonly what: string;
}

const LINE_FILE = /\.(jsonl|ndjson)(\.gz)?$/i;

/**
 * Reads a file of containers. A file named .jsonl/.ndjson is JSON lines (one
 * container per line, streamed with json-lines.ts, records on their batch line)
 * unless its first line is not JSON. Any other file is first read whole with
 * input.bytes() (capped by limits.maxDocumentBytes): one JSON document
 * (pretty-printed or on one line) is read as such, records on the line of
 * their span's id key; text that is not one document is read as JSON lines.
 */
export async function readContainers(input: ParseInput, sink: RecordSink, spec: ContainerSpec): Promise<void> {
  if (LINE_FILE.test(input.file) && (await firstLineIsJson(input))) {
    await readLines(input, sink, spec);
    return;
  }
  const text = (await input.bytes()).toString('utf8').replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    await readLines(input, sink, spec);
    return;
  }
  if (!spec.accepts(value)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `not ${spec.what}: "${excerpt(text)}"` });
    return;
  }
  const buffer = new TraceBuffer();
  skippedNote(sink, 1, spec.read(value, spanLineFinder(text, spec.idKeys), (span) => buffer.add(span)));
  buffer.flush(input.file, sink);
}

async function readLines(input: ParseInput, sink: RecordSink, spec: ContainerSpec): Promise<void> {
  const buffer = new TraceBuffer();
  await forEachJsonLine(input, sink, (value, line) => {
    if (!spec.accepts(value)) {
      sink.diagnostic({ ruleId: 'malformed-record', line, message: `line is not ${spec.what}: "${excerpt(JSON.stringify(value))}"` });
      return;
    }
    skippedNote(sink, line, spec.read(value, () => line, (span) => buffer.add(span)));
  });
  buffer.flush(input.file, sink);
}

/** Is the first non-blank line a complete JSON value (or too long to tell: then it is JSON lines' business)? */
async function firstLineIsJson(input: ParseInput): Promise<boolean> {
  for await (const event of input.lines()) {
    if (event.type === 'bad-line') return event.code === 'line-too-long';
    const text = event.text.trim();
    if (text === '') continue;
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }
  return true;
}

function skippedNote(sink: RecordSink, line: number, skipped: number): void {
  if (skipped > 0) sink.diagnostic({ ruleId: 'malformed-record', line, message: `${skipped} span(s) without a usable spanId were skipped` });
}
