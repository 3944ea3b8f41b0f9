import type { LlmSpan, ToolCall, ToolResult, TraceRecord } from '../../model/records.js';
import { RunBuilder, type HeldCall, type HeldRecord, type HeldResult, type Run } from '../../model/run.js';
import { argsKeyOf, responseKeyOf } from '../facts/call-identity.js';
import { errorCodeInContent } from '../facts/error-code.js';
import {
  END_DELTA,
  ERROR_IN_CONTENT,
  HAS_ARGS,
  HAS_CONTENT,
  HeldCallRecord,
  HeldLlmRecord,
  HeldResultRecord,
  IS_ERROR,
  MESSAGE_FALSE,
  MESSAGE_TRUE,
  TS_DELTA,
} from './held-records.js';
import { Origins, type Origin } from './origin.js';
import { contentFacts } from '../facts/error-result.js';
import type { KeptFact } from '../rules/rule-types.js';

/**
 * How a record is held in its run: calls and results lose their payloads (`args`,
 * `content` and their canonical texts) as they arrive, and keep what the rules
 * read of them as small fields: the argument key, whether the result is an error
 * and its code, and, when an active rule keeps them (`Rule.keeps`), the response
 * key and the stack trace. So a run's memory is its records' metadata, not the
 * text of its payloads; rules that read payloads do so in `Rule.record`.
 */

/** The facts taken from payloads beyond the ones every run keeps. */
export interface HoldNeeds {
  readonly responseKey: boolean;
  readonly stackTrace: boolean;
}

export const EVERY_FACT: HoldNeeds = { responseKey: true, stackTrace: true };

/** The facts the given rules keep. */
export function holdNeeds(rules: Iterable<{ readonly keeps?: readonly KeptFact[] }>): HoldNeeds {
  let responseKey = false;
  let stackTrace = false;
  for (const rule of rules) {
    for (const fact of rule.keeps ?? []) {
      if (fact === 'response-key') responseKey = true;
      else stackTrace = true;
    }
  }
  return { responseKey, stackTrace };
}

/** The record as its run keeps it (the same object for records other than calls, results and model spans). */
export function hold(record: TraceRecord, needs: HoldNeeds, origins: Origins = new Origins(1)): HeldRecord {
  if (record.kind === 'tool_call') return holdCall(record, origins.of(record.loc, record.runId));
  if (record.kind === 'tool_result') return holdResult(record, needs, origins.of(record.loc, record.runId));
  if (record.kind === 'llm') return holdLlm(record, origins.of(record.loc, record.runId));
  return record;
}

function holdCall(call: ToolCall, origin: Origin): HeldCall {
  const { catalogSha256, argsHash, deadlineMs, index, schemaSha256 } = call;
  const common = catalogSha256 === null && argsHash === null && deadlineMs === null && index === null && (schemaSha256 === undefined || schemaSha256 === null);
  const rare = common ? null : { catalogSha256, argsHash, deadlineMs, index, schemaSha256 };
  const delta = origin.deltaOf(call.ts);
  const flags = (delta === undefined ? 0 : TS_DELTA) | (call.args !== undefined ? HAS_ARGS : 0);
  return new HeldCallRecord(origin, call.loc.line, delta ?? call.ts, flags, call.spanId, origin.called(call.callId), origin.named(call.tool), argsKeyOf(call), rare);
}

function holdResult(result: ToolResult, needs: HoldNeeds, origin: Origin): HeldResult {
  const facts = contentFacts(result.content, needs.stackTrace);
  const errorInContent = facts.isError;
  const coded = result.errorCode !== null && result.errorCode !== '';
  const hasContent = result.content !== undefined;
  const contentErrorCode = (result.isError || errorInContent) && !coded ? errorCodeInContent(result.content) : null;
  // A failed call's answer is never compared (non-determinism): its key is not taken.
  const responseKey = needs.responseKey && hasContent && !result.isError && !errorInContent ? responseKeyOf(result) : null;
  const stackTrace = facts.stackTrace;
  const { catalogSha256, errorClass, errorCode, httpStatus, exitCode, index } = result;
  const common = catalogSha256 === null && errorClass === null && errorCode === null && httpStatus === null && exitCode === null && index === null && contentErrorCode === null && stackTrace === null;
  const rare = common ? null : { catalogSha256, errorClass, errorCode, httpStatus, exitCode, index, contentErrorCode, stackTrace };
  const delta = origin.deltaOf(result.ts);
  const flags = (delta === undefined ? 0 : TS_DELTA) | (result.isError ? IS_ERROR : 0) | (hasContent ? HAS_CONTENT : 0) | (errorInContent ? ERROR_IN_CONTENT : 0);
  return new HeldResultRecord(origin, result.loc.line, delta ?? result.ts, flags, result.spanId, origin.answered(result.callId), origin.named(result.tool), responseKey, rare);
}

function holdLlm(span: LlmSpan, origin: Origin): LlmSpan {
  const delta = origin.deltaOf(span.ts);
  const end = origin.deltaOf(span.endTs);
  const message = span.message === true ? MESSAGE_TRUE : span.message === false ? MESSAGE_FALSE : 0;
  const flags = (delta === undefined ? 0 : TS_DELTA) | (end === undefined ? 0 : END_DELTA) | message;
  return new HeldLlmRecord(origin, span.loc.line, delta ?? span.ts, flags, span.spanId, span.catalogSha256, end ?? span.endTs);
}

/** Builds a Run from records in one go, every fact kept (tests, small formats). */
export function runOf(file: string, runId: string | null, format: string, records: Iterable<TraceRecord>): Run {
  const builder = new RunBuilder(file, runId, format);
  const origins = new Origins();
  for (const record of records) builder.add(hold(record, EVERY_FACT, origins));
  return builder.finish();
}
