import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import { contentParts } from '../otel/conventions/google-adk.js';
import type { CallFact, ResultFact } from '../otel/facts.js';
import { llmRecord, toRecord, type Place } from '../facts/tool-facts.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';
import { largeDocumentHead, streamDocument, type DocumentElement } from '../read/whole-document.js';
import { evalSetNote, isAdkEvalSet } from './eval-set.js';

const SESSION_KEYS = ['app_name', 'appName', 'user_id', 'userId', 'last_update_time', 'lastUpdateTime'];

/** An ADK session: an `events` list whose events have an `author` and an invocation id (or the session's own keys). */
function isSession(value: unknown): value is JsonObject {
  if (!isObject(value)) return false;
  const events = own(value, 'events');
  if (!Array.isArray(events)) return false;
  if (SESSION_KEYS.some((key) => own(value, key) !== undefined) && own(value, 'id') !== undefined) return true;
  return events.slice(0, 8).some((e) => isObject(e) && typeof own(e, 'author') === 'string' && (own(e, 'invocation_id') !== undefined || own(e, 'invocationId') !== undefined));
}

export function isAdkFile(sample: DetectSample): boolean {
  const head = largeDocumentHead(sample);
  if (head !== null) return /"(invocation_id|invocationId)"\s*:/.test(head) && /"author"\s*:/.test(head) && /"events"\s*:\s*\[/.test(head);
  return isSession(sample.document) || isAdkEvalSet(sample.document);
}

/**
 * Google Agent Development Kit files: a saved session (what `adk web` and the
 * session services store: `{id, app_name, user_id, state, events}`, snake_case
 * or camelCase) is one run, the session id. Each event authored by an agent with
 * text or a `function_call` part is one llm record; `function_call` parts are
 * calls and `function_response` parts results, by id when ADK gave one (else
 * paired by tool name and order); a response with an `error` member is an error.
 * An eval set (`.test.json`, `.evalset.json`) lists expected calls, not a run:
 * it gets one note and no records. Events without content, the user's text and
 * agent events with neither text nor a call are counted as skipped.
 */
export const googleAdkFormat: TraceFormat = {
  id: 'google-adk',
  description: 'Google ADK saved sessions (events with function_call / function_response parts) and eval sets',
  detect: (sample) => (isAdkFile(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    // Events are streamed; up to 8 wait while the file has not yet shown it is a session (the session keys, or an authored event).
    let runId: string | null | undefined;
    let session: boolean | undefined;
    const waiting: DocumentElement[] = [];
    const read = await streamDocument(input, sink, { lists: ['$.events[*]'], needs: ['id'] }, (element) => {
      if (session === false) return;
      if (session === undefined) {
        const head = element.head();
        waiting.push(element);
        if (!isSessionStart(head, waiting.map((e) => e.value))) {
          if (waiting.length >= 8) session = false;
          return;
        }
        session = true;
        runId = isObject(head) ? idOf(head, 'id') : null;
        for (const e of waiting.splice(0)) readEvent(input.file, sink, runId, e);
        return;
      }
      readEvent(input.file, sink, runId ?? null, element);
    });
    if (!read) return;
    if (isAdkEvalSet(read.rest)) {
      sink.diagnostic({ ruleId: 'ingest-note', line: 1, message: evalSetNote(read.rest) });
      return;
    }
    if (session === undefined && isSession(read.rest)) {
      // Known only from the whole document's keys: a session with no events, or whose id comes after them.
      session = true;
      runId = idOf(read.rest, 'id');
      for (const e of waiting.splice(0)) readEvent(input.file, sink, runId, e);
    }
    if (session !== true) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'not an ADK session (no events list of authored events)' });
      return;
    }
    sink.endRun?.(runId ?? null);
  },
};

/** isSession on a document whose events are streamed: its head (events written []) and its first events. */
function isSessionStart(head: unknown, firstEvents: unknown[]): boolean {
  return isObject(head) && isSession({ ...head, events: firstEvents });
}

function readEvent(file: string, sink: RecordSink, runId: string | null, { value: event, line, index: i }: DocumentElement): void {
  if (!isObject(event)) {
    sink.diagnostic({ ruleId: 'malformed-record', line, runId, message: `events[${i}] is not an object` });
    return;
  }
  const content = own(event, 'content');
  if (!isObject(content)) return sink.skip({ line, reason: 'event without content', value: event });
  const place: Place = { loc: { file, line }, runId, ts: toMillis(own(event, 'timestamp')), spanId: idOf(event, 'id') };
  const calls: CallFact[] = [];
  const results: ResultFact[] = [];
  contentParts(content, calls, results);
  const parts = own(content, 'parts');
  const hasText = Array.isArray(parts) && parts.some((p) => isObject(p) && typeof own(p, 'text') === 'string');
  const fromUser = str(event, 'author') === 'user';
  if (!fromUser && results.length === 0 && (calls.length > 0 || hasText)) sink.record(llmRecord(place));
  else if (calls.length === 0 && results.length === 0) sink.skip({ line, reason: fromUser ? 'user event without a call or result' : 'agent event without text, a call or a result', value: event });
  for (const call of calls) sink.record(toRecord({ kind: 'call', callId: call.id, tool: call.name, args: call.args }, place));
  for (const result of results) sink.record(toRecord({ kind: 'result', callId: result.id, tool: result.name, content: result.content, isError: result.isError, errorClass: null, errorCode: null }, place));
}
