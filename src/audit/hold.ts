import type { ToolCall, ToolResult, TraceRecord } from '../model/records.js';
import { RunBuilder, type HeldCall, type HeldRecord, type HeldResult, type HeldTrace, type Run } from '../model/run.js';
import { argsKeyOf, responseKeyOf } from './call-identity.js';
import { errorCodeInContent } from './error-code.js';
import { contentIsError } from './error-result.js';
import type { KeptFact } from './rule-types.js';
import { detectStackTrace, type StackTrace } from './text/stack-trace.js';
import { forEachString } from './walk-strings.js';

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

/** The record as its run keeps it (the same object for records without payloads). */
export function hold(record: TraceRecord, needs: HoldNeeds): HeldRecord {
  if (record.kind === 'tool_call') return holdCall(record);
  if (record.kind === 'tool_result') return holdResult(record, needs);
  return record;
}

function holdCall(call: ToolCall): HeldCall {
  return {
    kind: call.kind,
    loc: call.loc,
    runId: call.runId,
    ts: call.ts,
    spanId: call.spanId,
    catalogSha256: call.catalogSha256,
    callId: call.callId,
    tool: call.tool,
    argsHash: call.argsHash,
    deadlineMs: call.deadlineMs,
    index: call.index,
    schemaSha256: call.schemaSha256,
    hasArgs: call.args !== undefined,
    argsKey: argsKeyOf(call),
  };
}

function holdResult(result: ToolResult, needs: HoldNeeds): HeldResult {
  const errorInContent = contentIsError(result);
  const coded = result.errorCode !== null && result.errorCode !== '';
  const hasContent = result.content !== undefined;
  return {
    kind: result.kind,
    loc: result.loc,
    runId: result.runId,
    ts: result.ts,
    spanId: result.spanId,
    catalogSha256: result.catalogSha256,
    callId: result.callId,
    tool: result.tool,
    isError: result.isError,
    errorClass: result.errorClass,
    errorCode: result.errorCode,
    httpStatus: result.httpStatus,
    exitCode: result.exitCode,
    index: result.index,
    hasContent,
    errorInContent,
    contentErrorCode: (result.isError || errorInContent) && !coded ? errorCodeInContent(result.content) : null,
    // A failed call's answer is never compared (non-determinism): its key is not taken.
    responseKey: needs.responseKey && hasContent && !result.isError && !errorInContent ? responseKeyOf(result) : null,
    stackTrace: needs.stackTrace ? longestTrace(result.content) : null,
  };
}

/** The stack trace with the most frames among a result's strings, and where it is. */
function longestTrace(content: unknown): HeldTrace | null {
  let best: { trace: StackTrace; path: string } | null = null;
  const consider = (path: string, text: string): void => {
    const trace = detectStackTrace(text);
    if (!trace) return;
    // On a tie, the decoded inside of a JSON string is the more precise place.
    if (best === null || trace.frames > best.trace.frames || (trace.frames === best.trace.frames && path.startsWith(`${best.path}<json>`))) best = { trace, path };
  };
  forEachString(content, consider);
  if (best === null) return null;
  const { trace, path } = best as { trace: StackTrace; path: string };
  return { language: trace.language, frames: trace.frames, tokens: trace.tokens, path };
}

/** Builds a Run from records in one go, every fact kept (tests, small formats). */
export function runOf(file: string, runId: string | null, format: string, records: Iterable<TraceRecord>): Run {
  const builder = new RunBuilder(file, runId, format);
  for (const record of records) builder.add(hold(record, EVERY_FACT));
  return builder.finish();
}
