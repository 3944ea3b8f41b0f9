import { idOf, isObject, own, str, toMillis, type JsonObject } from '../fields.js';
import { excerpt, forEachJsonLine } from '../json-lines.js';
import { itemFact } from '../message-facts.js';
import { llmRecord, toRecord, type Place, type ResultFact } from '../tool-facts.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';
import { quotedName } from '../skip-reason.js';
import { codexOutcome } from './outcome.js';

/** The top-level `type` of a rollout line (`{timestamp, type, payload}`). */
const LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** Response items the model produced (one model response may hold several). */
const MODEL_ITEMS = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', 'tool_search_call']);

/** A rollout line: `type` is one of the rollout's own line types and `payload` an object. */
export function isCodexRolloutLine(value: unknown): boolean {
  return isObject(value) && LINE_TYPES.has(str(value, 'type') ?? '') && isObject(own(value, 'payload'));
}

export function isCodexRollout(sample: DetectSample): boolean {
  return sample.jsonLines.some(isCodexRolloutLine);
}

/**
 * Codex CLI session rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`):
 * `{timestamp, type, payload}` lines. `session_meta.payload.id` is the run;
 * `response_item` payloads are Responses API items: `function_call`,
 * `custom_tool_call` and `local_shell_call` are calls, `*_output` items their
 * results by `call_id` (an exit code in the output is read); each run of
 * model-side items (reasoning, assistant message, calls) is one llm record.
 * A call the turn aborted or the user rejected has no result: it is an orphan,
 * and an output Codex wrote in place of one ("aborted") is not counted as one
 * (a note says so); a `turn_aborted` event notes the calls it left unanswered.
 * Other `event_msg`, `turn_context` and `compacted` lines carry no tool facts and
 * are counted as skipped, like line types and response items it does not know. Streamed: state is the session's call names and unanswered calls.
 * Rollouts concatenated into one file are one run each: a `session_meta` with another id starts the next.
 */
export const codexRolloutFormat: TraceFormat = {
  id: 'codex-rollout',
  description: 'Codex CLI session rollouts (rollout-*.jsonl)',
  detect: (sample) => (isCodexRollout(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    let runId: string | null = null;
    let inModelTurn = false;
    let toolOf = new Map<string, string>();
    /** Calls without an output yet, in call order (for the note of an aborted turn). */
    let unanswered = new Set<string>();
    let sessions = 0;
    await forEachJsonLine(input, sink, (value, line) => {
      // Detection needs one of the known line types; reading takes any typed envelope (newer versions add types).
      if (!isObject(value) || str(value, 'type') === null || !isObject(own(value, 'payload'))) {
        sink.diagnostic({ ruleId: 'malformed-record', line, runId, message: `line is not a rollout record ({timestamp, type, payload}): "${excerpt(JSON.stringify(value))}"` });
        return;
      }
      const record = value as JsonObject;
      const type = str(record, 'type');
      const payload = own(record, 'payload') as JsonObject;
      if (type === 'session_meta') {
        // Rollouts written one after another into one file: another session's meta ends the session
        // before it (its state is released); the same id again (a resumed session) goes on.
        const id = idOf(payload, 'id');
        sessions += 1;
        if (sessions > 1 && id !== null && id !== runId) {
          sink.endRun?.(runId);
          runId = id;
          inModelTurn = false;
          toolOf = new Map();
          unanswered = new Set();
        }
        runId ??= id;
        return;
      }
      if (type === 'event_msg' && str(payload, 'type') === 'turn_aborted') {
        if (unanswered.size === 0) return;
        const reason = str(payload, 'reason');
        const ids = [...unanswered].map((id) => `'${id}'`).join(', ');
        sink.diagnostic({ ruleId: 'ingest-note', line, runId, message: `turn aborted${reason === null ? '' : ` (${reason})`} with ${unanswered.size} call(s) still unanswered: ${ids}` });
        unanswered.clear();
        return;
      }
      if (type !== 'response_item') return skipLine(sink, line, type!, record, payload);
      const itemType = str(payload, 'type') ?? '';
      const place: Place = { loc: { file: input.file, line }, runId, ts: toMillis(own(record, 'timestamp')) };
      const modelSide = MODEL_ITEMS.has(itemType) || (itemType === 'message' && str(payload, 'role') === 'assistant');
      if (modelSide && !inModelTurn) sink.record(llmRecord(place));
      inModelTurn = modelSide;
      const facts = itemFact(payload);
      if (facts.length === 0 && !modelSide && itemType !== 'message') {
        sink.skip({ line, reason: `response item ${quotedName(itemType)} (neither a call nor an output)`, value: payload });
        return;
      }
      for (const fact of facts) {
        if (fact.kind === 'call') {
          if (fact.callId !== null) {
            toolOf.set(fact.callId, fact.tool);
            unanswered.add(fact.callId);
          }
          sink.record(toRecord(fact, place));
          continue;
        }
        const outcome = codexOutcome(fact.content);
        if (outcome.notRun !== null) {
          const message = `Codex recorded "${outcome.notRun}" in place of the output of call '${fact.callId}': the tool did not run, so it counts as a call without a result`;
          sink.diagnostic({ ruleId: 'ingest-note', line, runId, callId: fact.callId, message });
          continue;
        }
        if (fact.callId !== null) unanswered.delete(fact.callId);
        const tool = fact.tool ?? (fact.callId === null ? null : (toolOf.get(fact.callId) ?? null));
        const result: ResultFact = { ...fact, tool, isError: fact.isError || outcome.failed, errorClass: outcome.errorClass };
        const base = toRecord(result, place);
        sink.record(base.kind === 'tool_result' ? { ...base, exitCode: outcome.exitCode } : base);
      }
    });
    sink.endRun?.(runId);
  },
};

/** Line types Codex writes that repeat or describe what the response items hold (no tool facts of their own). */
const READ_PAST = new Set(['event_msg', 'turn_context', 'compacted']);

/**
 * A line that is not a response item, session_meta or turn_aborted: counted as
 * skipped. The known line types mirror the response items (an `exec_command_end`
 * event repeats a call's output), so only a line type Codex added later is looked
 * in for tool calls (partial-read).
 */
function skipLine(sink: RecordSink, line: number, type: string, record: JsonObject, payload: JsonObject): void {
  if (type === 'event_msg') return sink.skip({ line, reason: `event_msg ${quotedName(str(payload, 'type'))}` });
  if (READ_PAST.has(type)) return sink.skip({ line, reason: `${type} line` });
  sink.skip({ line, reason: `line type ${quotedName(type)}`, value: record });
}
