import { indexLines, type JsonPath, type LineOf } from '../read/json-locate.js';
import { forEachJsonLine } from '../read/json-lines.js';
import { isObject } from '../facts/fields.js';
import { Evidence, type DetectSample, type ParseInput, type RecordSink, type TraceFormat } from '../types.js';
import { parseDocument } from '../read/whole-document.js';
import type { CustomFormatSpec } from './mapping.js';
import { compileCondition, compileMapping, holds, readRecord, type CompiledCondition, type CompiledMapping, type Found, type Unread } from './read-item.js';

/**
 * A format from the configuration file's `formats:` section (docs/formats/custom.md).
 * Detection is the mapping's own `detect` condition and nothing else: a mapping
 * without one, or whose condition does not hold for the file's start, never claims
 * the file (it is read only when named with --input-format). When it holds, the
 * user's word outranks any built-in evidence (Evidence.configured).
 */
export function customFormat(spec: CustomFormatSpec): TraceFormat {
  const mapping = compileMapping(spec);
  const detect = spec.detect === undefined ? null : compileCondition(spec.detect);
  return {
    id: spec.name,
    description: spec.description ?? `configured format '${spec.name}' (formats.${spec.name})`,
    detect: (sample) => (detect !== null && claims(spec.layout, detect, sample) ? Evidence.configured : Evidence.none),
    parse: (input, sink) => (spec.layout === 'jsonl' ? parseLines(spec.name, mapping, input, sink) : parseWhole(spec.name, mapping, input, sink)),
  };
}

function claims(layout: CustomFormatSpec['layout'], detect: CompiledCondition, sample: DetectSample): boolean {
  try {
    if (layout === 'document') return sample.document !== undefined && holds(detect, sample.document);
    return sample.jsonLines.some((line) => holds(detect, line));
  } catch {
    return false;
  }
}

/** Each line is one record: what it yields is emitted in the line's order (catalog, calls, results). */
async function parseLines(name: string, mapping: CompiledMapping, input: ParseInput, sink: RecordSink): Promise<void> {
  await forEachJsonLine(input, sink, (value, line) => {
    const found: Found[] = [];
    const unread: Unread[] = [];
    const failure = read(mapping, value, found, unread);
    if (failure !== null) {
      sink.skip({ line, reason: failure, value });
      return;
    }
    for (const item of unread) sink.skip({ line, reason: item.reason, value: item.value, toolLike: true });
    if (found.length === 0) {
      if (unread.length === 0) sink.skip({ line, reason: `line is no call, result or catalog of format '${name}'`, value });
      return;
    }
    found.sort((a, b) => a.rank - b.rank);
    const loc = { file: input.file, line };
    for (const item of found) sink.record(item.make(loc));
  });
}

/**
 * The file is one document (read whole, capped by limits.max-document-bytes): each
 * record found points at the line where its item begins; records are emitted in
 * the document's line order, every catalog first (a run's tools before its calls).
 */
async function parseWhole(name: string, mapping: CompiledMapping, input: ParseInput, sink: RecordSink): Promise<void> {
  const document = await parseDocument(input, sink);
  if (document === null) return;
  const found: Found[] = [];
  const unread: Unread[] = [];
  const failure = read(mapping, document.value, found, unread);
  if (failure !== null) {
    sink.skip({ line: 1, reason: failure, value: document.value });
    return;
  }
  const lineOf = containerLines(indexLines(document.text, input.limits.maxDepth, 0));
  for (const item of unread) sink.skip({ line: lineOf(item.location), reason: item.reason, value: item.value, toolLike: true });
  if (found.length === 0) {
    if (unread.length === 0) sink.skip({ line: 1, reason: `the document holds no call, result or catalog of format '${name}'`, value: isObject(document.value) ? document.value : undefined });
    return;
  }
  const placed = found.map((item, order) => ({ item, order, line: lineOf(item.location) }));
  placed.sort((a, b) => (a.item.rank === 0) !== (b.item.rank === 0) ? (a.item.rank === 0 ? -1 : 1) : a.line - b.line || a.item.rank - b.item.rank || a.order - b.order);
  for (const { item, line } of placed) sink.record(item.make({ file: input.file, line }));
}

/** Runs the mapping on one record; a query that fails on it (too deep to walk) is a reason, not a crash. */
function read(mapping: CompiledMapping, record: unknown, found: Found[], unread: Unread[]): string | null {
  try {
    readRecord(mapping, record, found, unread);
    return null;
  } catch (error) {
    found.length = 0;
    unread.length = 0;
    return `the format's queries could not be run on it (${error instanceof RangeError ? 'nested too deep' : error instanceof Error ? error.message : 'error'})`;
  }
}

/** The line of the container at a path, or of the nearest container holding it (a scalar item). */
function containerLines(lineOf: LineOf): (path: JsonPath) => number {
  return (path) => {
    for (let end = path.length; end >= 0; end -= 1) {
      const line = lineOf(path.slice(0, end));
      if (line !== 0) return line;
    }
    return 1;
  };
}
