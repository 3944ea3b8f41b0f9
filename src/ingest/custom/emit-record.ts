import { isObject } from '../facts/fields.js';
import type { LineOf } from '../read/json-locate.js';
import type { RecordSink } from '../types.js';
import type { CompiledMapping } from './compile.js';
import type { MappingTally } from './mapping-check.js';
import { readRecord, type Found, type RecordRead } from './read-item.js';
import type { RecordQueries } from './walk.js';

/** One record to read with a mapping, and where what it gives goes. */
export interface MappedRecord {
  readonly name: string;
  readonly mapping: CompiledMapping;
  readonly tally: MappingTally;
  readonly sink: RecordSink;
  readonly file: string;
  readonly queries: RecordQueries;
  /** The line where the record begins. */
  readonly line: number;
  /** The line of a container in the record (a document); null: every item is at the record's line (a JSONL line). */
  readonly lineOf: LineOf | null;
}

/**
 * Runs the mapping on one record and emits what it gives: a JSONL line's items in
 * the line's order (catalog, calls, results); a document's at the line where each
 * item begins, every catalog first (a run's tools before its calls). With
 * `runs: per-record` each item's run is `<run id>#<record line>` (`record#<line>`
 * without an id), ended with the record. A query that fails on the record (too
 * deep to walk, JSON text past its budget) is a skip with the reason, not a crash.
 */
export function emitRecord(r: MappedRecord): void {
  const { sink, line } = r;
  const record = r.queries.record;
  let read: RecordRead;
  try {
    read = readRecord(r.mapping, r.queries, r.tally);
  } catch (error) {
    r.tally.record(false);
    const why = error instanceof RangeError ? 'nested too deep' : error instanceof Error ? error.message : 'error';
    sink.skip({ line, reason: `the format's queries could not be run on it (${why})`, value: record });
    return;
  }
  const lineOf = (location: Found['location']) => (r.lineOf === null ? line : nearestLine(r.lineOf, location, line));
  for (const item of read.unread) sink.skip({ line: lineOf(item.location), reason: item.reason, value: item.value, toolLike: true });
  if (read.found.length === 0) {
    if (read.unread.length === 0) {
      const reason = r.lineOf === null ? `line is no call, result or catalog of format '${r.name}'` : `the document holds no call, result or catalog of format '${r.name}'`;
      sink.skip({ line, reason, value: isObject(record) ? record : undefined });
    }
    return;
  }
  const placed = read.found.map((item, order) => ({ item, order, line: lineOf(item.location) }));
  placed.sort((a, b) => ((a.item.rank === 0) !== (b.item.rank === 0) ? (a.item.rank === 0 ? -1 : 1) : a.line - b.line || a.item.rank - b.item.rank || a.order - b.order));
  const runs = new Set<string | null>();
  const runOf = r.mapping.perRecord ? (run: string | null) => `${run ?? 'record'}#${line}` : (run: string | null) => run;
  for (const { item, line: at } of placed) {
    const made = item.make({ file: r.file, line: at }, runOf);
    runs.add(made.runId);
    sink.record(made);
  }
  if (r.mapping.perRecord) for (const run of runs) sink.endRun?.(run);
}

/** The line of the container at a path, or of the nearest container holding it (a scalar item). */
function nearestLine(lineOf: LineOf, path: Found['location'], fallback: number): number {
  for (let end = path.length; end >= 0; end -= 1) {
    const found = lineOf(path.slice(0, end));
    if (found !== 0) return found;
  }
  return fallback;
}
