import { describePath } from '../../io/json-stream/list-paths.js';
import { limitText } from '../../io/limits.js';
import { JsonStreamScanner, type ScanEvent } from '../../io/json-stream/scanner.js';
import { indexLines, type JsonPath, type LineOf } from './json-locate.js';
import { excerpt } from './json-lines.js';
import { readWhole } from './read-whole.js';
import { errorOffset, hasKeys, headOf, toElement, type Head } from './streamed-element.js';
import type { DetectSample, ParseInput, RecordSink } from '../types.js';

/** A whole-document format's text and parsed value. */
export interface ParsedDocument {
  readonly text: string;
  readonly value: unknown;
}

/**
 * Reads the file as one JSON document, for the formats that need all of it at
 * once (the others stream it: streamDocument below). A file longer than
 * max-document-bytes is not read: one `malformed-record` naming the limit, and
 * null. A file that does not parse becomes one `malformed-record` at line 1 and null.
 */
export async function parseDocument(input: ParseInput, sink: RecordSink): Promise<ParsedDocument | null> {
  const bytes = await readWhole(input, sink, 'the document');
  if (bytes === null) return null;
  let text = '';
  try {
    text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'not one JSON document' : 'could not be read as JSON';
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: `${reason}: "${excerpt(text)}"` });
    return null;
  }
}

/** Up to `max` bytes of the file's start (a whole chunk or more), to tell a kind of file without reading it all. */
export async function headBytes(input: ParseInput, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of input.chunks()) {
    parts.push(Buffer.from(chunk.subarray(0, max - total)));
    total += parts[parts.length - 1]!.length;
    if (total >= max) break;
  }
  return Buffer.concat(parts, total);
}

/** One item of a streamed list of a document, parsed by JSON.parse. */
export interface DocumentElement {
  /** The list pattern it matched, as written in the options (`$.events[*]`). */
  readonly list: string;
  /** Where it is in the document, e.g. `['events', 12]` or `[3, 'observations', 0]`. */
  readonly path: JsonPath;
  /** Its index in its list (the last step of `path`). */
  readonly index: number;
  /** Its JSON text as written (for places finer than containers, e.g. the line of an id key). */
  readonly text: string;
  readonly value: unknown;
  /** The line where it begins, and where its list's `[` is. */
  readonly line: number;
  readonly listLine: number;
  /** The line where a container inside it begins (a path from the element, as `indexLines` takes); its own line when there is none. */
  lineOf(sub: JsonPath): number;
  /**
   * The document read before it, with the streamed lists written `[]` (parsed
   * on the first call). With `needs`, the top-level keys named there are in it
   * wherever the document has them.
   */
  head(): unknown;
  /** The line where a container of `head()` begins (a path from the document's top); 1 when there is none. */
  headLineOf(path: JsonPath): number;
}

export interface StreamOptions {
  /** The lists read one item at a time (`$.events[*]`, `$[*]`, `$[*].observations[*]`: see src/io/json-stream/list-paths.ts). */
  readonly lists: readonly string[];
  /**
   * Top-level keys the elements need (a run id, a catalog). When one is not
   * before the first element, the file is read twice: first for the rest of
   * the document only, then for its elements.
   */
  readonly needs?: readonly string[];
  /** Lists whose items are dropped from the rest once read (see ScannerOptions.hollow): their streamed lists are still read. */
  readonly hollow?: readonly string[];
}

/** What is left of a document when its streamed lists are read: the document with those lists `[]`. */
export interface DocumentRest {
  readonly rest: unknown;
  /** The line in the file where a container of the rest begins (a streamed list: its `[`); 1 when there is none. */
  readonly lineOf: LineOf;
}

/**
 * Reads a one-document format as a stream (memory: the largest element, capped
 * by max-element-bytes): `onElement` gets each item of the named lists in file
 * order, each parsed by JSON.parse itself (so duplicate keys, escapes, lone
 * surrogates and big numbers are what reading the whole file gave). An item
 * that is not JSON or is larger than the cap is one `malformed-record` at its
 * line and reading goes on; a document that breaks off or is not JSON outside
 * its items is one `malformed-record` at the line where that is seen, and null.
 */
export async function streamDocument(
  input: ParseInput,
  sink: RecordSink,
  options: StreamOptions,
  onElement: (element: DocumentElement) => void,
): Promise<DocumentRest | null> {
  const first = await scanOnce(input, sink, options, options.needs ?? [], null, onElement);
  if (first === null || first.complete) return first;
  // A needed key comes after the lists: the first read kept the rest only, the second reads the elements.
  return scanOnce(input, sink, options, [], { value: first.rest, lineOf: first.lineOf }, onElement);
}

async function scanOnce(
  input: ParseInput,
  sink: RecordSink,
  { lists, hollow }: StreamOptions,
  needs: readonly string[],
  knownHead: Head | null,
  onElement: (element: DocumentElement) => void,
): Promise<(DocumentRest & { readonly complete: boolean }) | null> {
  const limit = input.limits.maxElementBytes;
  const scanner = new JsonStreamScanner({ lists, hollow, maxElementBytes: limit, maxRestBytes: limit });
  let checked = needs.length === 0;
  let complete = true;
  let broken = false;
  const handle = (events: ScanEvent[]): void => {
    for (const event of events) {
      if (event.kind === 'error') {
        sink.diagnostic({ ruleId: 'malformed-record', line: event.line, message: `not one JSON document: ${event.message}` });
        broken = true;
        return;
      }
      if (!checked) {
        checked = true;
        if (!hasKeys(headOf(scanner, event), needs)) {
          complete = false;
          scanner.skipElements();
          continue;
        }
      }
      if (event.kind === 'oversized') {
        sink.diagnostic({ ruleId: 'malformed-record', line: event.line, message: `${describePath(event.path)} is longer than the ${limitText('maxElementBytes', limit)}; it was passed over` });
        continue;
      }
      const element = toElement(scanner, event, knownHead, sink);
      if (element !== null) onElement(element);
    }
  };
  for await (const chunk of input.chunks()) {
    handle(scanner.push(chunk));
    if (broken) return null;
  }
  handle(scanner.end());
  if (broken) return null;
  const text = scanner.restText();
  try {
    const rest = JSON.parse(text) as unknown;
    let lines: LineOf | null = null;
    return { rest, complete, lineOf: (path) => (lines ??= indexLines(text, 8, 1, scanner.restJumps()))(path) };
  } catch (error) {
    const at = errorOffset(error);
    sink.diagnostic({ ruleId: 'malformed-record', line: scanner.restLine(text, at), message: `not one JSON document: "${excerpt(text.slice(Math.max(0, at - 20)))}"` });
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
