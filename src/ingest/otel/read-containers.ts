import type { JsonObject } from '../fields.js';
import { excerpt, forEachJsonLine } from '../json-lines.js';
import { isJsonLines, peekLines } from '../peek-lines.js';
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

/**
 * Reads a file of containers without reading it twice where it can:
 * - the first non-blank line is JSON and more lines follow: JSON lines (one
 *   container per line, streamed with json-lines.ts, records on their batch line);
 *   a first line too long to read as a line counts as JSON lines too when more follow;
 * - the whole file is one line of JSON: that line is the document (records on line 1);
 * - otherwise (a pretty-printed document, or one line too long to read as a line):
 *   the file is read whole with input.bytes(), records on the line of their span's id key.
 */
export async function readContainers(input: ParseInput, sink: RecordSink, spec: ContainerSpec): Promise<void> {
  const peek = await peekLines(input);
  if (isJsonLines(peek)) {
    await readLines(input, sink, spec);
    return;
  }
  let text: string;
  if (peek.firstIsJson && peek.first !== null) text = peek.first;
  else {
    try {
      text = (await input.bytes()).toString('utf8').replace(/^\uFEFF/, '');
    } catch (error) {
      // Past V8's longest string (about 512 MiB): such a document must be split into JSON lines.
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `the document is too large to read whole (${error instanceof Error ? error.message : String(error)})` });
      return;
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `not one JSON document: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  if (!spec.accepts(value)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `not ${spec.what}: "${excerpt(text)}"` });
    return;
  }
  const buffer = new TraceBuffer(input.file, sink, input.limits.runIdleRecords);
  skippedNote(sink, 1, spec.read(value, spanLineFinder(text, spec.idKeys), (span) => buffer.add(span)));
  buffer.flush();
}

async function readLines(input: ParseInput, sink: RecordSink, spec: ContainerSpec): Promise<void> {
  const buffer = new TraceBuffer(input.file, sink, input.limits.runIdleRecords);
  await forEachJsonLine(input, sink, (value, line) => {
    if (!spec.accepts(value)) {
      sink.diagnostic({ ruleId: 'malformed-record', line, message: `line is not ${spec.what}: "${excerpt(JSON.stringify(value))}"` });
      return;
    }
    skippedNote(sink, line, spec.read(value, () => line, (span) => buffer.add(span)));
  });
  buffer.flush();
}

function skippedNote(sink: RecordSink, line: number, skipped: number): void {
  if (skipped > 0) sink.diagnostic({ ruleId: 'malformed-record', line, message: `${skipped} span(s) without a usable spanId were skipped` });
}
