import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import { llmRecord, resultFact, toRecord, type Place } from '../facts/tool-facts.js';
import { quotedName } from '../skip-reason.js';
import type { RecordSink } from '../types.js';

/** Tool call states after which the call is done (its result is final). */
const DONE = new Set(['success', 'error', 'cancelled']);

/**
 * One Gemini CLI session's messages as they arrive (a JSON file's `messages`, or
 * JSONL message lines and `$set` rewrites). A message can arrive more than once
 * (re-appended when its tool calls finish, or listed again by a `$set`): each
 * model message is one llm record, each tool call one call, and its inline
 * result one result, the first time each is seen. Held: the ids already read.
 */
export class GeminiSession {
  private readonly messages = new Set<string>();
  private readonly calls = new Set<string>();
  private readonly results = new Set<string>();

  constructor(
    private readonly file: string,
    private readonly sink: RecordSink,
  ) {}

  message(message: JsonObject, line: number, runId: string | null): void {
    // User, info, error and warning messages carry no tool calls (a tool's result is inline in the model's message).
    if (str(message, 'type') !== 'gemini') return this.sink.skip({ line, reason: `message type ${quotedName(str(message, 'type'))}`, value: message });
    const place: Place = { loc: { file: this.file, line }, runId, ts: toMillis(own(message, 'timestamp')) };
    const id = idOf(message, 'id') ?? `line ${line}`;
    if (!this.messages.has(id)) {
      this.messages.add(id);
      this.sink.record(llmRecord(place));
    }
    const toolCalls = own(message, 'toolCalls');
    if (!Array.isArray(toolCalls)) return;
    toolCalls.forEach((call: unknown, i) => {
      if (!isObject(call) || str(call, 'name') === null) {
        this.sink.diagnostic({ ruleId: 'malformed-record', line, runId, message: `toolCalls[${i}] of message '${id}' has no tool name` });
        return;
      }
      const callId = idOf(call, 'id') ?? `${id}#${i}`;
      const tool = str(call, 'name')!;
      if (!this.calls.has(callId)) {
        this.calls.add(callId);
        this.sink.record(toRecord({ kind: 'call', callId, tool, args: own(call, 'args') }, place));
      }
      const status = str(call, 'status');
      const hasResult = own(call, 'result') !== undefined && own(call, 'result') !== null;
      if (this.results.has(callId) || (!hasResult && !DONE.has(status ?? ''))) return;
      this.results.add(callId);
      const content = hasResult ? responseOf(own(call, 'result')) : (own(call, 'resultDisplay') ?? own(call, 'error'));
      const isError = status === 'error' || status === 'cancelled' || carriesError(content);
      this.sink.record(toRecord(resultFact(callId, tool, content, isError, status === 'cancelled' ? 'cancelled' : null), place));
    });
  }
}

/** The `functionResponse.response` of the result parts (the one response, or the list). */
function responseOf(result: unknown): unknown {
  if (!Array.isArray(result)) return result;
  const responses = result.map((part) => {
    const response = isObject(part) ? (own(part, 'functionResponse') ?? own(part, 'function_response')) : undefined;
    return isObject(response) ? own(response, 'response') : part;
  });
  return responses.length === 1 ? responses[0] : responses;
}

function carriesError(content: unknown): boolean {
  if (!isObject(content)) return false;
  const error = own(content, 'error');
  return error !== undefined && error !== null && error !== '';
}
