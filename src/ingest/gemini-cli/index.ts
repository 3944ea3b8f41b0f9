import { idOf, isObject, own, str, type JsonObject } from '../facts/fields.js';
import { excerpt, forEachJsonLine } from '../read/json-lines.js';
import { quotedName } from '../skip-reason.js';
import { eachLine, Evidence, type DetectSample, type ParseInput, type RecordSink, type TraceFormat } from '../types.js';
import { largeDocumentHead, streamDocument } from '../read/whole-document.js';
import { GeminiSession } from './session.js';

/** The session header: `sessionId` with `projectHash` (a hash of the project folder) is Gemini CLI's own pair. */
function isHeader(value: unknown): value is JsonObject {
  return isObject(value) && typeof own(value, 'sessionId') === 'string' && typeof own(value, 'projectHash') === 'string';
}

/** A message line: `type: "gemini"` (the model's messages) or a user/info message next to one. */
function isGeminiMessage(value: unknown): boolean {
  return isObject(value) && str(value, 'type') === 'gemini' && own(value, 'content') !== undefined;
}

export function isGeminiCliSession(sample: DetectSample): boolean {
  const head = largeDocumentHead(sample);
  if (head !== null) return /^\{\s*"sessionId"\s*:\s*"[^"]*"\s*,\s*"projectHash"\s*:/.test(head);
  if (isHeader(sample.document) && Array.isArray(own(sample.document, 'messages'))) return true;
  return sample.jsonLines.some((value) => isHeader(value) || isGeminiMessage(value));
}

/**
 * Gemini CLI chat sessions (`~/.gemini/tmp/<project>/chats/session-*.json` and
 * `.jsonl`): `{sessionId, projectHash, startTime, lastUpdated, messages}` as one
 * document, or a header line followed by message lines and `$set` / `$rewindTo`
 * records. Messages of `type: "gemini"` are the model's; their `toolCalls[]`
 * carry the call (`id`, `name`, `args`) and its result inline (`result[]` of
 * `functionResponse`, `status` success / error / cancelled). The session id is
 * the run. JSONL is streamed, one run per session header (logs concatenated into one
 * file are one run each; a session's state is released at the next header). Other messages (user, info), `$` records without
 * messages (`$rewindTo`) are counted as skipped.
 */
export const geminiCliFormat: TraceFormat = {
  id: 'gemini-cli',
  description: 'Gemini CLI chat sessions (session-*.json and .jsonl)',
  detect: (sample) => (isGeminiCliSession(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    if (await startsAsDocument(input)) return readDocument(input, sink);
    let session = new GeminiSession(input.file, sink);
    let runId: string | null = null;
    await forEachJsonLine(input, sink, (value, line) => {
      if (!isObject(value)) {
        sink.diagnostic({ ruleId: 'malformed-record', line, runId, message: `line is not a session record: "${excerpt(JSON.stringify(value))}"` });
        return;
      }
      if (runId !== null && isHeader(value) && own(value, 'sessionId') !== runId) {
        // Session logs written one after another into one file: the next header ends the
        // session before it, and its state (the ids already read) is released.
        sink.endRun?.(runId);
        session = new GeminiSession(input.file, sink);
        runId = null;
      }
      runId ??= idOf(value, 'sessionId');
      const set = own(value, '$set');
      const messages = isObject(set) ? own(set, 'messages') : own(value, 'messages');
      if (Array.isArray(messages)) {
        for (const message of messages) if (isObject(message)) session.message(message, line, runId);
        return;
      }
      // The header names the run; `$set`, `$rewindTo` and other `$` records rewrite the session's state (only their messages are read).
      if (isHeader(value)) return;
      const rewrite = Object.keys(value).find((key) => key.startsWith('$'));
      if (rewrite !== undefined) return sink.skip({ line, reason: `${quotedName(rewrite)} record without messages`, value });
      if (str(value, 'type') === null) {
        sink.diagnostic({ ruleId: 'malformed-record', line, runId, message: `record has no "type", "$set" or "$rewindTo": "${excerpt(JSON.stringify(value))}"` });
        return;
      }
      session.message(value, line, idOf(value, 'sessionId') ?? runId);
    });
    sink.endRun?.(runId);
  },
};

/** A pretty-printed session document starts with a line that is not JSON on its own. */
async function startsAsDocument(input: ParseInput): Promise<boolean> {
  for await (const event of eachLine(input)) {
    if (event.type === 'bad-line') return false;
    const text = event.text.trim();
    if (text === '') continue;
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  }
  return false;
}

/** The document form, streamed: `messages` one at a time, the session id read before them (or in a first read when it comes after). */
async function readDocument(input: ParseInput, sink: RecordSink): Promise<void> {
  const session = new GeminiSession(input.file, sink);
  let runId: string | null | undefined;
  const read = await streamDocument(input, sink, { lists: ['$.messages[*]'], needs: ['sessionId'] }, (element) => {
    if (runId === undefined) {
      const head = element.head();
      runId = isObject(head) ? idOf(head, 'sessionId') : null;
    }
    if (isObject(element.value)) session.message(element.value, element.line, runId);
    else sink.diagnostic({ ruleId: 'malformed-record', line: element.line, runId, message: `messages[${element.index}] is not an object` });
  });
  if (!read) return;
  const doc = read.rest;
  if (!isObject(doc) || !Array.isArray(own(doc, 'messages'))) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'the session document has no "messages" list' });
    return;
  }
  sink.endRun?.(runId ?? idOf(doc, 'sessionId'));
}
