import type { SourceLocation } from '../../model/records.js';
import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import { excerpt, forEachJsonLine } from '../read/json-lines.js';
import { itemFact } from '../facts/message-facts.js';
import { llmRecord, toRecord, type Place, type ResultFact } from '../facts/tool-facts.js';
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
    const state: RolloutState = { runId: null, inModelTurn: false, toolOf: new Map(), unanswered: new Set(), sessions: 0 };
    await forEachJsonLine(input, sink, (value, line) => {
      // Detection needs one of the known line types; reading takes any typed envelope (newer versions add types).
      if (!isObject(value) || str(value, 'type') === null || !isObject(own(value, 'payload'))) {
        sink.diagnostic({ ruleId: 'malformed-record', line, runId: state.runId, message: `line is not a rollout record ({timestamp, type, payload}): "${excerpt(JSON.stringify(value))}"` });
        return;
      }
      readRolloutLine(value as JsonObject, { file: input.file, line }, state, sink);
    });
    sink.endRun?.(state.runId);
  },
};

/** What a rollout's reading carries from line to line: the session's run, its call names and its unanswered calls. */
interface RolloutState {
  runId: string | null;
  inModelTurn: boolean;
  toolOf: Map<string, string>;
  /** Calls without an output yet, in call order (for the note of an aborted turn). */
  unanswered: Set<string>;
  sessions: number;
}

function readRolloutLine(record: JsonObject, loc: SourceLocation, state: RolloutState, sink: RecordSink): void {
  const { line } = loc;
  const type = str(record, 'type');
  const payload = own(record, 'payload') as JsonObject;
  if (type === 'session_meta') return startSession(payload, state, sink);
  if (type === 'event_msg' && str(payload, 'type') === 'turn_aborted') {
    if (state.unanswered.size === 0) return;
    const reason = str(payload, 'reason');
    const ids = [...state.unanswered].map((id) => `'${id}'`).join(', ');
    sink.diagnostic({ ruleId: 'ingest-note', line, runId: state.runId, message: `turn aborted${reason === null ? '' : ` (${reason})`} with ${state.unanswered.size} call(s) still unanswered: ${ids}` });
    state.unanswered.clear();
    return;
  }
  if (type !== 'response_item') return skipLine(sink, line, type!, record, payload);
  const itemType = str(payload, 'type') ?? '';
  const place: Place = { loc, runId: state.runId, ts: toMillis(own(record, 'timestamp')) };
  const modelSide = MODEL_ITEMS.has(itemType) || (itemType === 'message' && str(payload, 'role') === 'assistant');
  if (modelSide && !state.inModelTurn) sink.record(llmRecord(place));
  state.inModelTurn = modelSide;
  const facts = itemFact(payload);
  if (facts.length === 0 && !modelSide && itemType !== 'message') {
    sink.skip({ line, reason: `response item ${quotedName(itemType)} (neither a call nor an output)`, value: payload });
    return;
  }
  for (const fact of facts) {
    if (fact.kind !== 'call') {
      readOutput(fact, place, state, sink);
      continue;
    }
    if (fact.callId !== null) {
      state.toolOf.set(fact.callId, fact.tool);
      state.unanswered.add(fact.callId);
    }
    sink.record(toRecord(fact, place));
  }
}

/**
 * Rollouts written one after another into one file: another session's meta ends the session
 * before it (its state is released); the same id again (a resumed session) goes on.
 */
function startSession(payload: JsonObject, state: RolloutState, sink: RecordSink): void {
  const id = idOf(payload, 'id');
  state.sessions += 1;
  if (state.sessions > 1 && id !== null && id !== state.runId) {
    sink.endRun?.(state.runId);
    state.runId = id;
    state.inModelTurn = false;
    state.toolOf = new Map();
    state.unanswered = new Set();
  }
  state.runId ??= id;
}

/** A call's output: its result with the exit code and failure read from it, or a note when Codex wrote one in place of it. */
function readOutput(fact: ResultFact, place: Place, state: RolloutState, sink: RecordSink): void {
  const outcome = codexOutcome(fact.content);
  if (outcome.notRun !== null) {
    const message = `Codex recorded "${outcome.notRun}" in place of the output of call '${fact.callId}': the tool did not run, so it counts as a call without a result`;
    sink.diagnostic({ ruleId: 'ingest-note', line: place.loc.line, runId: state.runId, callId: fact.callId, message });
    return;
  }
  if (fact.callId !== null) state.unanswered.delete(fact.callId);
  const tool = fact.tool ?? (fact.callId === null ? null : (state.toolOf.get(fact.callId) ?? null));
  const result: ResultFact = { ...fact, tool, isError: fact.isError || outcome.failed, errorClass: outcome.errorClass };
  const base = toRecord(result, place);
  sink.record(base.kind === 'tool_result' ? { ...base, exitCode: outcome.exitCode } : base);
}

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
