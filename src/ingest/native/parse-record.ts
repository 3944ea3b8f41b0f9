import type { SourceLocation } from '../../model/records.js';
import { own, type JsonObject } from '../facts/fields.js';
import { excerpt } from '../read/json-lines.js';
import type { RecordSink } from '../types.js';
import { embeddedReceipts, hasBoundaryFields, parseBoundary, parseRedaction } from './boundary.js';
import type { DialectResult } from './common.js';
import { dialectOf, whyNoDialect } from './dialect.js';
import { parseReplay } from './replay.js';
import { parseSpanLog } from './span-log.js';
import { parseTypedEvent } from './typed-events.js';

const NO_MORE_RECORDS: DialectResult = { ok: true, records: [] };

/** Where a file's replay transcript is: the index its next record should carry. */
export interface ReplayState {
  nextIndex: number;
}

type Dialect = ReturnType<typeof dialectOf>;

/** One native record (an object) to the sink: its dialect's records, then the boundary and receipts it carries. */
export function parseNativeRecord(value: JsonObject, loc: SourceLocation, text: string, sink: RecordSink, replay: ReplayState): void {
  const dialect = dialectOf(value);
  const result = dialectResult(value, dialect, loc, text, sink, replay);
  if (result === null) return;
  if (!result.ok) {
    sink.diagnostic({ ruleId: 'malformed-record', line: loc.line, message: result.reason });
    return;
  }
  // Index loops: this runs for every line, and iterating the shared frozen empty
  // lists with for-of made an iterator object each time.
  for (let i = 0; i < result.records.length; i += 1) sink.record(result.records[i]!);
  if (dialect !== 'replay') carriedRecords(value, dialect, loc, sink);
}

/** A record's own dialect verdict; null when it fits none (already reported). */
function dialectResult(value: JsonObject, dialect: Dialect, loc: SourceLocation, text: string, sink: RecordSink, replay: ReplayState): DialectResult | null {
  switch (dialect) {
    case 'span': {
      // The common case, without the result wrapper: the record goes straight on.
      const record = parseSpanLog(value, loc);
      if (typeof record === 'string') return { ok: false, reason: record };
      sink.record(record);
      return NO_MORE_RECORDS;
    }
    case 'event':
      return parseTypedEvent(value, loc, text);
    case 'replay': {
      const result = parseReplay(value, loc, replay.nextIndex, text);
      // A bad index is reported once; the sequence continues from what the file says.
      if (typeof own(value, 'index') === 'number' && Number.isInteger(own(value, 'index'))) replay.nextIndex = (own(value, 'index') as number) + 1;
      else replay.nextIndex += 1;
      return result;
    }
    case 'boundary':
      return { ok: true, records: [] };
    case 'redaction': {
      const receipt = parseRedaction(value, loc);
      return receipt ? { ok: true, records: [receipt] } : { ok: false, reason: 'redaction receipt lacks a string field_path or rule_id' };
    }
    default:
      sink.diagnostic({ ruleId: 'malformed-record', line: loc.line, message: `record fits no native dialect (${whyNoDialect(value)}): "${excerpt(JSON.stringify(value))}"` });
      return null;
  }
}

/** The boundary record and redaction receipts a non-replay record carries beside its own. */
function carriedRecords(value: JsonObject, dialect: Dialect, loc: SourceLocation, sink: RecordSink): void {
  if (hasBoundaryFields(value)) {
    const { record, problem } = parseBoundary(value, loc);
    if (problem !== null) sink.diagnostic({ ruleId: 'malformed-record', line: loc.line, message: problem });
    if (record !== null) sink.record(record);
  }
  if (dialect !== 'redaction') {
    const receipts = embeddedReceipts(value, loc);
    if (typeof receipts === 'string') {
      sink.diagnostic({ ruleId: 'malformed-record', line: loc.line, message: receipts });
    } else for (let i = 0; i < receipts.length; i += 1) sink.record(receipts[i]!);
  }
}
