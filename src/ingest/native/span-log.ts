import type { SourceLocation, TraceRecord } from '../../model/records.js';
import { idValue, intValue, numValue, strValue, toMillis, type JsonObject } from '../fields.js';
import { errorCodeOf, resultIsError } from './common.js';

export const SPAN_KINDS = new Set(['llm', 'tool_call', 'tool_result', 'blocked_on']);

const NO_IDS: readonly string[] = Object.freeze([]);

/** The call ids a blocked_on span names: `call_id`, `call_ids` or `blocked_on` (an id or a list); null when one is not an id. */
function blockedIds(obj: JsonObject): readonly string[] | null {
  const out: string[] = [];
  for (const key of ['call_id', 'call_ids', 'blocked_on']) {
    const value = obj[key];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const id = idValue(item);
      if (id === null) return null;
      out.push(id);
    }
  }
  return out.length === 0 ? NO_IDS : out;
}

/**
 * Span logs: `{"kind": "llm" | "tool_call" | "tool_result" | "blocked_on", "run_id", "span_id",
 * "call_id", "tool", "args_hash", "deadline_ms", "http_status", "error_class", "ts"}`.
 * Returns the record, or why the line is malformed. This is the hottest parser of a
 * big span log: each record is built in one object literal (one shape per kind,
 * the base fields first, as `baseFields` orders them), with no wrapper objects, and
 * fields are read by fixed name (none of them is a member of Object.prototype, so a
 * plain read is an own read: see fields.ts).
 */
export function parseSpanLog(obj: JsonObject, loc: SourceLocation): TraceRecord | string {
  const kind = strValue(obj['kind']);
  const runId = idValue(obj['run_id']);
  const ts = toMillis(obj['ts'] ?? obj['timestamp']);
  const spanId = idValue(obj['span_id']);
  const catalogSha256 = strValue(obj['catalog_sha256']);
  if (kind === 'blocked_on' || (kind === 'llm' && obj['event'] === 'blocked_on')) {
    const callIds = blockedIds(obj);
    if (callIds === null) return 'blocked_on span whose "call_id", "call_ids" or "blocked_on" is not a call id or a list of them';
    return { kind: 'blocked_on', loc, runId, ts, spanId, catalogSha256, callIds };
  }
  if (kind === 'llm') {
    const end = toMillis(obj['end_ts']);
    const duration = end === null ? numValue(obj['duration_ms']) : null;
    return { kind: 'llm', loc, runId, ts, spanId, catalogSha256, endTs: end ?? (ts !== null && duration !== null ? ts + duration : null) };
  }
  const tool = strValue(obj['tool']);
  const callId = idValue(obj['call_id']);
  if (kind === 'tool_call') {
    if (tool === null) return 'tool_call span without a string "tool"';
    return {
      kind: 'tool_call',
      loc,
      runId,
      ts,
      spanId,
      catalogSha256,
      callId,
      tool,
      args: obj['args'] ?? obj['arguments'],
      argsHash: strValue(obj['args_hash']) ?? strValue(obj['args_sha256']),
      deadlineMs: numValue(obj['deadline_ms']),
      index: null,
      schemaSha256: strValue(obj['schema_sha256']),
    };
  }
  const httpStatus = intValue(obj['http_status']);
  const exitCode = intValue(obj['exit_code']);
  return {
    kind: 'tool_result',
    loc,
    runId,
    ts,
    spanId,
    catalogSha256,
    callId,
    tool,
    content: obj['result'] ?? obj['output'] ?? obj['content'] ?? obj['error'],
    isError: resultIsError(obj, httpStatus, exitCode),
    errorClass: strValue(obj['error_class']),
    errorCode: errorCodeOf(obj),
    httpStatus,
    exitCode,
    index: null,
  };
}
