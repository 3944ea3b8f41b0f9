import { excerpt, forEachJsonLine } from '../../read/json-lines.js';
import { eachLine, type ParseInput, type RecordSink } from '../../types.js';
import { attributeSpan, exactIdSpan, flatSpan, isAttributeMap, isFlatSpan } from './flat-spans.js';
import { forEachStreamedObject } from './object-stream.js';
import { spanLineFinder } from './span-lines.js';
import { TraceBuffer } from '../trace-buffer.js';
import { streamDocument, type DocumentRest } from '../../read/whole-document.js';

/**
 * A list of flat spans streamed one at a time (spans placed on the line of their `span_id`),
 * one span (or list of spans) per line, or pretty-printed spans one after another
 * (console exporter output), the last two streamed into the trace buffer.
 * Spans without a usable id are counted as skipped, each (partial-read when
 * they look like tool spans).
 */
export async function readFlatSpans(input: ParseInput, sink: RecordSink): Promise<void> {
  const buffer = new TraceBuffer(input.file, sink, input.limits);
  const take = (raw: unknown, lineOf: (id: unknown) => number, line: number) => {
    const span = isFlatSpan(raw) ? flatSpan(raw, lineOf) : isAttributeMap(raw) ? attributeSpan(raw, line) : null;
    if (span) buffer.add(span);
    else sink.skip({ line, reason: 'span without a name and a usable context.span_id', value: raw });
  };
  const start = await firstLine(input);
  if (start === 'list') {
    await readSpanList(input, sink, buffer, '$[*]');
  } else if (start === 'object') {
    await forEachStreamedObject(input, sink, (value, line) => {
      if (isFlatSpan(value) || isAttributeMap(value)) take(value, () => line, line);
      else sink.diagnostic({ ruleId: 'malformed-record', line, message: `object is not a span ({name, context: {trace_id, span_id}, …}): "${excerpt(JSON.stringify(value))}"` });
    });
  } else {
    await forEachJsonLine(input, sink, (value, line) => {
      const list = Array.isArray(value) ? value : [value];
      if (!list.some((item) => isFlatSpan(item) || isAttributeMap(item))) {
        sink.diagnostic({ ruleId: 'malformed-record', line, message: `line is not a span ({name, context: {trace_id, span_id}, …}): "${excerpt(JSON.stringify(value))}"` });
        return;
      }
      for (const raw of list) take(raw, () => line, line);
    });
  }
  buffer.flush();
}

/**
 * The spans of one list of a JSON document (`$[*]`, any-agent's `$.spans[*]`), streamed one
 * at a time (each capped by limits.max-element-bytes), placed on the line of their span_id;
 * ids written as JSON integers are kept exact. Returns the rest of the document (null when it broke off).
 */
export async function readSpanList(input: ParseInput, sink: RecordSink, buffer: TraceBuffer, list: string): Promise<DocumentRest | null> {
  return streamDocument(input, sink, { lists: [list] }, (element) => {
    const raw = exactIdSpan(element.text, element.value);
    const finder = spanLineFinder(element.text, ['span_id']);
    const span = isFlatSpan(raw) ? flatSpan(raw, (id) => element.line + finder(id) - 1) : null;
    if (span) buffer.add(span);
    else sink.skip({ line: element.line, reason: 'span without a name and a usable context.span_id', value: raw });
  });
}

/**
 * How the file starts: `[` (a list, read whole), a line that opens an object but is
 * not JSON on its own (pretty-printed spans one after another), or JSON lines.
 */
async function firstLine(input: ParseInput): Promise<'list' | 'object' | 'lines'> {
  for await (const event of eachLine(input)) {
    if (event.type === 'bad-line') return 'lines';
    const text = event.text.replace(/^\uFEFF/, '').trim();
    if (text === '') continue;
    if (text.startsWith('[')) return 'list';
    try {
      JSON.parse(text);
      return 'lines';
    } catch {
      return text.startsWith('{') ? 'object' : 'lines';
    }
  }
  return 'lines';
}
