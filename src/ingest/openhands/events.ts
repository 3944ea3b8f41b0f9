import { idOf, int, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import { llmRecord, toRecord, type Place } from '../facts/tool-facts.js';
import { quotedName } from '../skip-reason.js';
import type { RecordSink } from '../types.js';

const SOURCES = new Set(['agent', 'user', 'environment']);

/** An OpenHands event: `source` agent / user / environment, and an `action` or an `observation`. */
export function isOpenHandsEvent(value: unknown): value is JsonObject {
  if (!isObject(value) || !SOURCES.has(str(value, 'source') ?? '')) return false;
  return typeof own(value, 'action') === 'string' || typeof own(value, 'observation') === 'string';
}

/** Actions that end the run: by design no observation answers them. */
export const FINISH_ACTIONS = new Set(['finish']);

/**
 * Reads one stream's events in order. An action with `tool_call_metadata` is a
 * call (`tool_call_id`, `function_name`, the action's `args`), its
 * `model_response` one llm record per response id; an observation answers the
 * call of its `tool_call_metadata`, else of the action its `cause` names
 * (`observation: "error"` or `success: false` is an error; a `run`
 * observation's exit code is kept). A `finish` action is answered by itself: it
 * ends the run and no observation follows it by design. Held: the call id and
 * tool of each action id, and the model response ids seen. Other actions (a
 * user's message, a system prompt) and observations that answer no call are
 * counted as skipped.
 */
export class OpenHandsStream {
  private readonly callOfAction = new Map<string, { callId: string; tool: string }>();
  private readonly responses = new Set<string>();

  constructor(
    private readonly file: string,
    private readonly sink: RecordSink,
    private readonly runId: string | null,
  ) {}

  event(event: JsonObject, line: number): void {
    const place: Place = { loc: { file: this.file, line }, runId: this.runId, ts: toMillis(own(event, 'timestamp')), spanId: idOf(event, 'id') };
    const metadata = own(event, 'tool_call_metadata');
    const callId = isObject(metadata) ? idOf(metadata, 'tool_call_id') : null;
    const tool = isObject(metadata) ? str(metadata, 'function_name') : null;
    const action = str(event, 'action');
    if (action !== null) {
      const response = isObject(metadata) ? own(metadata, 'model_response') : undefined;
      const responseId = isObject(response) ? idOf(response, 'id') : null;
      const modelMessage = str(event, 'source') === 'agent' && action === 'message';
      if (responseId !== null) {
        if (!this.responses.has(responseId)) this.sink.record(llmRecord(place));
        this.responses.add(responseId);
      } else if (modelMessage) this.sink.record(llmRecord(place));
      if (callId === null || tool === null) {
        if (responseId === null && !modelMessage) this.sink.skip({ line, reason: `${str(event, 'source')} action ${quotedName(action)} without tool_call_metadata`, value: event });
        return;
      }
      const actionId = idOf(event, 'id');
      if (actionId !== null) this.callOfAction.set(actionId, { callId, tool });
      this.sink.record(toRecord({ kind: 'call', callId, tool, args: own(event, 'args') }, place));
      if (FINISH_ACTIONS.has(action)) {
        const args = own(event, 'args');
        const content = isObject(args) ? (own(args, 'final_thought') ?? own(args, 'message') ?? args) : (str(event, 'message') ?? undefined);
        this.sink.record(toRecord({ kind: 'result', callId, tool, content, isError: false, errorClass: null, errorCode: null }, place));
      }
      return;
    }
    const observation = str(event, 'observation');
    const cause = idOf(event, 'cause');
    const call = callId !== null && tool !== null ? { callId, tool } : cause === null ? undefined : this.callOfAction.get(cause);
    if (observation === null || call === undefined) {
      this.sink.skip({ line, reason: `observation ${quotedName(observation)} that answers no call`, value: event });
      return;
    }
    const extras = own(event, 'extras');
    const meta = isObject(extras) ? own(extras, 'metadata') : undefined;
    const exitCode = isObject(meta) ? int(meta, 'exit_code') : null;
    const isError = observation === 'error' || own(event, 'success') === false;
    const record = toRecord({ kind: 'result', callId: call.callId, tool: call.tool, content: own(event, 'content'), isError, errorClass: observation === 'error' ? 'error' : null, errorCode: null }, place);
    this.sink.record(record.kind === 'tool_result' ? { ...record, exitCode } : record);
  }
}
