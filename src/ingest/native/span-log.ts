import type { SourceLocation } from '../../model/records.js';
import { idOf, int, num, own, str, toMillis, type JsonObject } from '../fields.js';
import { bad, baseFields, errorCodeOf, ok, resultIsError, type DialectResult } from './common.js';

export const SPAN_KINDS = new Set(['llm', 'tool_call', 'tool_result']);

/**
 * Span logs: `{"kind": "llm" | "tool_call" | "tool_result", "run_id", "span_id",
 * "call_id", "tool", "args_hash", "deadline_ms", "http_status", "error_class", "ts"}`.
 */
export function parseSpanLog(obj: JsonObject, loc: SourceLocation): DialectResult {
  const kind = str(obj, 'kind');
  const base = baseFields(obj, loc);
  if (kind === 'llm') {
    const end = toMillis(own(obj, 'end_ts'));
    const duration = num(obj, 'duration_ms');
    return ok({ kind: 'llm', ...base, endTs: end ?? (base.ts !== null && duration !== null ? base.ts + duration : null) });
  }
  const tool = str(obj, 'tool');
  const callId = idOf(obj, 'call_id');
  if (kind === 'tool_call') {
    if (tool === null) return bad('tool_call span without a string "tool"');
    const args = own(obj, 'args') ?? own(obj, 'arguments');
    return ok({
      kind: 'tool_call',
      ...base,
      callId,
      tool,
      args,
      argsHash: str(obj, 'args_hash') ?? str(obj, 'args_sha256'),
      deadlineMs: num(obj, 'deadline_ms'),
      index: null,
    });
  }
  const httpStatus = int(obj, 'http_status');
  const exitCode = int(obj, 'exit_code');
  return ok({
    kind: 'tool_result',
    ...base,
    callId,
    tool,
    content: own(obj, 'result') ?? own(obj, 'output') ?? own(obj, 'content') ?? own(obj, 'error'),
    isError: resultIsError(obj, httpStatus, exitCode),
    errorClass: str(obj, 'error_class'),
    errorCode: errorCodeOf(obj),
    httpStatus,
    exitCode,
    index: null,
  });
}
