import type { JsonObject } from '../../facts/fields.js';
import { excerpt, forEachJsonLine } from '../../read/json-lines.js';
import { isJsonLines, peekLines } from '../../read/peek-lines.js';
import type { ParseInput, RecordSink } from '../../types.js';
import { streamDocument, type DocumentElement } from '../../read/whole-document.js';
import type { OtelSpan } from '../span.js';
import { spanLineFinder } from './span-lines.js';
import { TraceBuffer } from '../trace-buffer.js';

/** One container family (OTLP, Jaeger): how to recognise it and list its spans. */
export interface ContainerSpec {
  readonly accepts: (value: unknown) => value is JsonObject;
  /** Calls onSpan for every span; returns how many spans were unusable. */
  readonly read: (container: JsonObject, lineOf: (rawSpanId: unknown) => number, onSpan: (span: OtelSpan) => void) => number;
  /** The lists of a document whose items are spans, for a streaming read (`$.data[*].spans[*]`). */
  readonly spanLists: readonly string[];
  /** Lists around the span lists whose items a streaming read need not keep (see StreamOptions.hollow). */
  readonly hollowLists?: readonly string[];
  /** One span of a streamed document (the element gives the document around it), or null when unusable. */
  readonly readSpan: (element: DocumentElement, lineOf: (rawSpanId: unknown) => number) => OtelSpan | null;
  /** Keys holding a span's own id, to place spans of a document on lines. */
  readonly idKeys: readonly string[];
  /** For messages: what a line should have been. */
  readonly what: string;
}

/**
 * Reads a file of containers without reading it whole:
 * - the first non-blank line is JSON and more lines follow: JSON lines (one
 *   container per line, streamed with json-lines.ts, records on their batch line);
 *   a first line too long to read as a line counts as JSON lines too when more follow;
 * - the whole file is one line of JSON: that line is the document (records on line 1);
 * - otherwise (a pretty-printed document, or one line too long to read as a line):
 *   the document is streamed one span at a time (whole-document.ts streamDocument),
 *   records on the line of their span's id key. Memory: the traces in flight
 *   (see TraceBuffer) and one span, capped by limits.max-element-bytes.
 */
export async function readContainers(input: ParseInput, sink: RecordSink, spec: ContainerSpec): Promise<void> {
  const peek = await peekLines(input);
  if (isJsonLines(peek)) {
    await readLines(input, sink, spec);
    return;
  }
  if (!peek.firstIsJson || peek.first === null) {
    await readDocument(input, sink, spec);
    return;
  }
  const text = peek.first;
  const value: unknown = JSON.parse(text);
  if (!spec.accepts(value)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `not ${spec.what}: "${excerpt(text)}"` });
    return;
  }
  const buffer = new TraceBuffer(input.file, sink, input.limits);
  skippedNote(sink, 1, spec.read(value, spanLineFinder(text, spec.idKeys), (span) => buffer.add(span)));
  buffer.flush();
}

/** A pretty-printed (or very long one-line) document, one span at a time. */
async function readDocument(input: ParseInput, sink: RecordSink, spec: ContainerSpec): Promise<void> {
  const buffer = new TraceBuffer(input.file, sink, input.limits);
  let spans = 0;
  let skipped = 0;
  const read = await streamDocument(input, sink, { lists: spec.spanLists, hollow: spec.hollowLists }, (element) => {
    spans += 1;
    const finder = spanLineFinder(element.text, spec.idKeys);
    const span = spec.readSpan(element, (rawSpanId) => element.line + finder(rawSpanId) - 1);
    if (span) buffer.add(span);
    else skipped += 1;
  });
  // What was read before a break is audited; the break itself is one malformed-record (sent by streamDocument).
  if (read !== null && spans === 0 && !spec.accepts(read.rest)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `not ${spec.what}: "${excerpt(JSON.stringify(read.rest) ?? '')}"` });
  }
  skippedNote(sink, 1, skipped);
  buffer.flush();
}

async function readLines(input: ParseInput, sink: RecordSink, spec: ContainerSpec): Promise<void> {
  const buffer = new TraceBuffer(input.file, sink, input.limits);
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
