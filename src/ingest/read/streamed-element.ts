/** The items of a streamed document (src/io/json-stream/): each parsed, with its lines and the document before it. */
import { describePath } from '../../io/json-stream/list-paths.js';
import type { JsonStreamScanner, ScannedElement } from '../../io/json-stream/scanner.js';
import { indexLines, type LineOf } from './json-locate.js';
import { excerpt } from './json-lines.js';
import type { RecordSink } from '../types.js';
import type { DocumentElement } from './whole-document.js';

/** The character offset JSON.parse's error names (V8: "at position N"), or 0. */
export function errorOffset(error: unknown): number {
  const m = error instanceof Error ? /position (\d+)/.exec(error.message) : null;
  return m ? Number(m[1]) : 0;
}

/** The document before an element (undefined when that part is not JSON: the end of the read reports it). */
export function headOf(scanner: JsonStreamScanner, place: { readonly restBytes: number; readonly closers: string }): unknown {
  try {
    return JSON.parse(scanner.restText(place.restBytes) + place.closers) as unknown;
  } catch {
    return undefined;
  }
}

/** The document before an element, and its lines. */
export interface Head {
  readonly value: unknown;
  readonly lineOf: LineOf;
}

const ONE_LINE: LineOf = () => 0;

export function toElement(scanner: JsonStreamScanner, event: ScannedElement, knownHead: Head | null, sink: RecordSink): DocumentElement | null {
  let value: unknown;
  try {
    value = JSON.parse(event.text);
  } catch (error) {
    const at = errorOffset(error);
    let line = event.line;
    for (let i = event.text.indexOf('\n'); i !== -1 && i < at; i = event.text.indexOf('\n', i + 1)) line += 1;
    sink.diagnostic({ ruleId: 'malformed-record', line, message: `${describePath(event.path)} is not JSON: "${excerpt(event.text.slice(Math.max(0, at - 20)))}"` });
    return null;
  }
  let lines: LineOf | null = null;
  let head = knownHead;
  const path = event.path;
  return {
    list: event.list,
    path,
    index: path[path.length - 1] as number,
    text: event.text,
    value,
    line: event.line,
    listLine: event.listLine,
    lineOf(sub) {
      if (sub.length === 0) return event.line;
      // An element on one line (JSONL-like lists) has every container on its first line.
      lines ??= event.text.indexOf('\n') === -1 ? ONE_LINE : indexLines(event.text, 8, 0);
      const at = lines(sub);
      return at === 0 ? event.line : event.line + at - 1;
    },
    head() {
      head ??= headAt(scanner, event);
      return head.value;
    },
    headLineOf(at) {
      head ??= headAt(scanner, event);
      return head.lineOf(at);
    },
  };
}

function headAt(scanner: JsonStreamScanner, place: { readonly restBytes: number; readonly closers: string }): Head {
  let lines: LineOf | null = null;
  return {
    value: headOf(scanner, place),
    lineOf: (path) => (lines ??= indexLines(scanner.restText(place.restBytes) + place.closers, 8, 1, scanner.restJumps(place.restBytes)))(path),
  };
}

export function hasKeys(head: unknown, keys: readonly string[]): boolean {
  if (head === null || typeof head !== 'object' || Array.isArray(head)) return true;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(head, key));
}
