import { isObject, own, str, type JsonObject } from '../fields.js';
import { excerpt, forEachJsonLine } from '../json-lines.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { embeddedReceipts, hasBoundaryFields, isRedactionReceipt, parseBoundary, parseRedaction } from './boundary.js';
import type { DialectResult } from './common.js';
import { looksLikeReplay, parseReplay } from './replay.js';
import { parseSpanLog, SPAN_KINDS } from './span-log.js';
import { EVENT_TYPES, parseTypedEvent } from './typed-events.js';

const NO_MORE_RECORDS: DialectResult = { ok: true, records: [] };

/** Which native dialect a record belongs to, decided per record (one file may mix them). */
export function dialectOf(obj: JsonObject): 'span' | 'event' | 'replay' | 'boundary' | 'redaction' | null {
  const kind = str(obj, 'kind');
  if (kind !== null && SPAN_KINDS.has(kind)) return 'span';
  if (kind === 'catalog') return 'event';
  const type = str(obj, 'type');
  if (type !== null && EVENT_TYPES.has(type)) return 'event';
  if (looksLikeReplay(obj)) return 'replay';
  if (hasBoundaryFields(obj)) return 'boundary';
  if (isRedactionReceipt(obj)) return 'redaction';
  return null;
}

/** Why a record fits no dialect, naming the field it has when it has one (its `kind` or `type` is another's). */
export function whyNoDialect(obj: JsonObject): string {
  const kind = own(obj, 'kind');
  const type = own(obj, 'type');
  if (kind !== undefined) return `"kind" ${excerpt(JSON.stringify(kind) ?? '', 30)} is not llm, tool_call or tool_result`;
  if (type !== undefined) return `"type" ${excerpt(JSON.stringify(type) ?? '', 30)} is not catalog, tool_call, tool_result, catalog_unused or llm`;
  return 'no kind, type, index or boundary fields';
}

/** The JSONL dialects agent harnesses write by hand: span logs, typed events, boundary records, redaction receipts, replay transcripts. */
export const nativeFormat: TraceFormat = {
  id: 'native-jsonl',
  description: 'JSONL span logs, typed events, boundary-hash records, redaction receipts and replay transcripts',
  // Replay records carry no run id and count their index across lines: the router
  // sees a replay record on a thread other than the one of the '' run and gives up.
  runKey: 'run_id',
  detect(sample: DetectSample): number {
    // The dialects' field names (kind, type, index) are common words: structure, not a signature.
    return sample.jsonLines.some((value) => isObject(value) && dialectOf(value) !== null) ? Evidence.structure : Evidence.none;
  },
  misfit(sample: DetectSample) {
    // JSON lines only: a one-line document is no claim to be a log.
    const first = sample.jsonLines.length > 1 ? sample.jsonLines.find(isObject) : undefined;
    return first === undefined ? null : { closeness: 1, reason: `its first record fits no native dialect (${whyNoDialect(first)})` };
  },
  async parse(input, sink) {
    let nextReplayIndex = 0;
    await forEachJsonLine(input, sink, (value, line, text) => {
      const loc = { file: input.file, line };
      if (!isObject(value)) {
        sink.diagnostic({ ruleId: 'malformed-record', line, message: `record is ${Array.isArray(value) ? 'a JSON array' : `a JSON ${value === null ? 'null' : typeof value}`}, not an object` });
        return;
      }
      const dialect = dialectOf(value);
      let result: DialectResult;
      switch (dialect) {
        case 'span': {
          // The common case, without the result wrapper: the record goes straight on.
          const record = parseSpanLog(value, loc);
          if (typeof record === 'string') result = { ok: false, reason: record };
          else {
            sink.record(record);
            result = NO_MORE_RECORDS;
          }
          break;
        }
        case 'event':
          result = parseTypedEvent(value, loc, text);
          break;
        case 'replay':
          result = parseReplay(value, loc, nextReplayIndex, text);
          // A bad index is reported once; the sequence continues from what the file says.
          if (typeof own(value, 'index') === 'number' && Number.isInteger(own(value, 'index'))) nextReplayIndex = (own(value, 'index') as number) + 1;
          else nextReplayIndex += 1;
          break;
        case 'boundary':
          result = { ok: true, records: [] };
          break;
        case 'redaction': {
          const receipt = parseRedaction(value, loc);
          result = receipt ? { ok: true, records: [receipt] } : { ok: false, reason: 'redaction receipt lacks a string field_path or rule_id' };
          break;
        }
        default:
          sink.diagnostic({ ruleId: 'malformed-record', line, message: `record fits no native dialect (${whyNoDialect(value)}): "${excerpt(JSON.stringify(value))}"` });
          return;
      }
      if (!result.ok) {
        sink.diagnostic({ ruleId: 'malformed-record', line, message: result.reason });
        return;
      }
      // Index loops: this runs for every line, and iterating the shared frozen empty
      // lists with for-of made an iterator object each time.
      for (let i = 0; i < result.records.length; i += 1) sink.record(result.records[i]!);
      if (dialect !== 'replay' && hasBoundaryFields(value)) {
        const { record, problem } = parseBoundary(value, loc);
        if (problem !== null) sink.diagnostic({ ruleId: 'malformed-record', line, message: problem });
        if (record !== null) sink.record(record);
      }
      if (dialect !== 'replay' && dialect !== 'redaction') {
        const receipts = embeddedReceipts(value, loc);
        if (typeof receipts === 'string') {
          sink.diagnostic({ ruleId: 'malformed-record', line, message: receipts });
        } else for (let i = 0; i < receipts.length; i += 1) sink.record(receipts[i]!);
      }
    });
  },
};
