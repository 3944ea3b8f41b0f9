import type { SourceLocation, TraceRecord } from '../../model/records.js';
import { idItems, idOf, int, num, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import { errorCodeOf, resultIsError } from './common.js';

export const SPAN_KINDS = new Set(['llm', 'tool_call', 'tool_result', 'blocked_on']);

const NO_IDS: readonly string[] = Object.freeze([]);

/** The call ids a blocked_on span names: `call_id`, `call_ids` or `blocked_on` (an id or a list); null when one is not an id. */
function blockedIds(obj: JsonObject): readonly string[] | null {
  const out: string[] = [];
  for (const key of ['call_id', 'call_ids', 'blocked_on']) {
    const value = own(obj, key);
    if (value === undefined || value === null) continue;
    const ids = idItems(value);
    if (ids === null) return null;
    out.push(...ids);
  }
  return out.length === 0 ? NO_IDS : out;
}

/**
 * Span logs: `{"kind": "llm" | "tool_call" | "tool_result" | "blocked_on", "run_id", "span_id",
 * "call_id", "tool", "args_hash", "deadline_ms", "http_status", "error_class", "ts"}`.
 * Returns the record, or why the line is malformed. This is the hottest parser of a
 * big span log: each record is built in one object literal (one shape per kind,
 * the base fields first, as `baseFields` orders them), with no wrapper objects, and
 * fields are read by fixed name with the readers of fields.ts (own reads for every name).
 */
export function parseSpanLog(obj: JsonObject, loc: SourceLocation): TraceRecord | string {
  const kind = str(obj, 'kind');
  const runId = idOf(obj, 'run_id');
  const ts = toMillis(own(obj, 'ts') ?? own(obj, 'timestamp'));
  const spanId = idOf(obj, 'span_id');
  const catalogSha256 = str(obj, 'catalog_sha256');
  if (kind === 'blocked_on' || (kind === 'llm' && own(obj, 'event') === 'blocked_on')) {
    const callIds = blockedIds(obj);
    if (callIds === null) return 'blocked_on span whose "call_id", "call_ids" or "blocked_on" is not a call id or a list of them';
    return { kind: 'blocked_on', loc, runId, ts, spanId, catalogSha256, callIds };
  }
  if (kind === 'llm') {
    const end = toMillis(own(obj, 'end_ts'));
    const duration = end === null ? num(obj, 'duration_ms') : null;
    return { kind: 'llm', loc, runId, ts, spanId, catalogSha256, endTs: end ?? (ts !== null && duration !== null ? ts + duration : null) };
  }
  const tool = str(obj, 'tool');
  const callId = idOf(obj, 'call_id');
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
      args: own(obj, 'args') ?? own(obj, 'arguments'),
      argsHash: str(obj, 'args_hash') ?? str(obj, 'args_sha256'),
      deadlineMs: num(obj, 'deadline_ms'),
      index: null,
      schemaSha256: str(obj, 'schema_sha256'),
    };
  }
  const httpStatus = int(obj, 'http_status');
  const exitCode = int(obj, 'exit_code');
  return {
    kind: 'tool_result',
    loc,
    runId,
    ts,
    spanId,
    catalogSha256,
    callId,
    tool,
    content: own(obj, 'result') ?? own(obj, 'output') ?? own(obj, 'content') ?? own(obj, 'error'),
    isError: resultIsError(obj, httpStatus, exitCode),
    errorClass: str(obj, 'error_class'),
    errorCode: errorCodeOf(obj),
    httpStatus,
    exitCode,
    index: null,
  };
}
