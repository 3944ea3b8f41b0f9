import { idOf, isObject, own, str, strList, toMillis, type JsonObject } from '../facts/fields.js';
import { forEachJsonLine } from '../read/json-lines.js';
import { SessionStates } from '../read/session-states.js';
import { blockFacts } from '../facts/message-facts.js';
import { catalogRecord, resultFact, toRecord, llmRecord, type Place } from '../facts/tool-facts.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';

const RECORD_TYPES = new Set(['user', 'assistant', 'system', 'result', 'summary']);

/**
 * A line only Claude Code writes: a user/assistant line with a Messages-API
 * `message` object, a system/result line with a `subtype` and a session id, or
 * a summary with a `leafUuid`. A `sessionId` and a `type: "user"` alone are not
 * enough (Gemini CLI logs have both, with `message` a string).
 */
function looksLikeLine(value: unknown): boolean {
  if (!isObject(value)) return false;
  const type = str(value, 'type');
  if (type === 'user' || type === 'assistant') {
    const message = own(value, 'message');
    if (!isObject(message)) return false;
    const role = own(message, 'role');
    return (role === undefined || role === type) && own(message, 'content') !== undefined;
  }
  if (type === 'system' || type === 'result') return str(value, 'subtype') !== null && (own(value, 'sessionId') !== undefined || own(value, 'session_id') !== undefined);
  return type === 'summary' && typeof own(value, 'leafUuid') === 'string';
}

/** Lines that have Claude Code's field names but not its shape. */
function nearLine(value: unknown): boolean {
  if (!isObject(value)) return false;
  const type = str(value, 'type');
  return (type !== null && RECORD_TYPES.has(type)) && (own(value, 'sessionId') !== undefined || own(value, 'session_id') !== undefined || own(value, 'message') !== undefined);
}

const DENIED = /doesn't want to proceed with this tool use|tool use was rejected|permission to use .* (has been|was) denied|requested permissions/i;

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON array';
  return value === null ? 'JSON null' : `a JSON ${typeof value}`;
}

/**
 * Claude Code session transcripts (`~/.claude/projects/.../<session>.jsonl`)
 * and Claude Agent SDK / `claude -p --output-format stream-json` output: one
 * run per session id. `tool_use` blocks are calls, `tool_result` blocks results
 * (`is_error`; a rejected permission is classed `permission_denied`), each new
 * assistant message an llm span, `system/init` `tools` the catalog, and the
 * final `result` line's `permission_denials` results for calls denied without one.
 */
export const claudeCodeFormat: TraceFormat = {
  id: 'claude-code',
  description: 'Claude Code session transcripts and Claude Agent SDK stream-json (JSONL)',
  detect(sample: DetectSample): number {
    return sample.jsonLines.some(looksLikeLine) ? Evidence.signature : Evidence.none;
  },
  misfit(sample: DetectSample) {
    return sample.jsonLines.some(nearLine)
      ? { closeness: 2, reason: 'no line is a Claude Code record (a user/assistant line with a "message" object that has its "role" and "content", a system/result line with a "subtype" and session id, a summary with a "leafUuid")' }
      : null;
  },
  async parse(input, sink) {
    await forEachJsonLine(input, sink, claudeCodeLineReader(input.file, sink, input.limits.runIdleRecords));
  },
};

/** What the reader keeps of one session: its last assistant message id, the tool of each call id, the calls answered. */
interface SessionState {
  lastMessage: string | null;
  readonly toolOf: Map<string, string>;
  readonly answered: Set<string>;
}

/**
 * The reader of one Claude Code record (a transcript line, or one entry of a
 * JSON export's `loglines`), with the state it keeps per session, released when
 * the session has been idle for `idleRecords` records (0: kept to the end; see SessionStates).
 */
export function claudeCodeLineReader(file: string, sink: RecordSink, idleRecords = 0): (value: unknown, line: number) => void {
  const sessions = new SessionStates<SessionState>(idleRecords, () => ({ lastMessage: null, toolOf: new Map(), answered: new Set() }), sink);
  return (value: unknown, line: number) => {
    sessions.tick();
    if (!isObject(value)) {
      sink.diagnostic({ ruleId: 'malformed-record', line, message: `record is ${describe(value)}, not an object` });
      return;
    }
    const type = str(value, 'type');
    const runId = idOf(value, 'sessionId') ?? idOf(value, 'session_id');
    const place: Place = { loc: { file, line }, runId, ts: toMillis(own(value, 'timestamp')), spanId: idOf(value, 'uuid') };
    const bad = (message: string) => sink.diagnostic({ ruleId: 'malformed-record', line, runId, message });
    if (type === null) return bad('record has no "type"');
    const session = sessions.get(runId);
    if (type === 'system') return readSystem(value, place, sink);
    if (type === 'result') return readResult(value, place, session, sink);
    if (type !== 'user' && type !== 'assistant') return sink.skip({ line, reason: `record type "${type.length > 40 ? `${type.slice(0, 40)}…` : type}"`, value });
    const message = own(value, 'message');
    if (!isObject(message)) return bad(`"message" is ${describe(message)}, not an object`);
    const content = own(message, 'content');
    if (type === 'user') userInput(content, runId, sink);
    if (typeof content === 'string') {
      if (type === 'assistant') sink.record(llmRecord(place));
      return;
    }
    if (!Array.isArray(content)) return bad(`message has no "content" list${own(value, 'toolUseResult') !== undefined ? ' (its toolUseResult cannot be matched to a call)' : ''}`);
    if (type === 'assistant') {
      const id = idOf(message, 'id') ?? `line ${line}`;
      if (session.lastMessage !== id) sink.record(llmRecord(place));
      session.lastMessage = id;
    }
    readBlocks(content, value, session, place, bad, sink);
  };
}

/** A user message's text: the first one of a session is its task input, what names the session across reruns (its id is new each time). */
function userInput(content: unknown, runId: string | null, sink: RecordSink): void {
  const first: unknown = Array.isArray(content) ? content[0] : content;
  const text = typeof first === 'string' ? first : isObject(first) && own(first, 'type') === 'text' ? own(first, 'text') : undefined;
  if (typeof text === 'string' && text !== '') sink.scenario?.({ runId, input: text });
}

/** A system record: `init` with its `tools` is the catalog; any other is skipped. */
function readSystem(value: JsonObject, place: Place, sink: RecordSink): void {
  const { line } = place.loc;
  const tools = strList(own(value, 'tools'));
  if (str(value, 'subtype') === 'init' && tools) sink.record(catalogRecord(tools.map((name) => ({ name, schemaSha256: null })), place));
  else sink.skip({ line, reason: `system record${str(value, 'subtype') === null ? '' : ` (subtype "${str(value, 'subtype')}")`} without a tool list`, value });
}

/** The final result record: its `permission_denials` are results for the calls denied without one. */
function readResult(value: JsonObject, place: Place, session: SessionState, sink: RecordSink): void {
  const denials = own(value, 'permission_denials');
  if (!Array.isArray(denials)) return sink.skip({ line: place.loc.line, reason: 'result record without permission_denials', value });
  for (const denial of denials) {
    if (!isObject(denial)) continue;
    const callId = idOf(denial, 'tool_use_id');
    if (callId === null || session.answered.has(callId)) continue;
    sink.record(toRecord(resultFact(callId, str(denial, 'tool_name'), 'permission denied', true, 'permission_denied', 'permission_denied'), place));
  }
}

/** A message's content blocks: calls (their tools kept by id) and results (named, a rejected permission classed). */
function readBlocks(content: readonly unknown[], value: JsonObject, session: SessionState, place: Place, bad: (message: string) => void, sink: RecordSink): void {
  const { toolOf, answered } = session;
  content.forEach((block, i) => {
    if (!isObject(block)) return bad(`content item ${i} is ${describe(block)}, not a block`);
    for (let fact of blockFacts(block)) {
      const key = fact.callId ?? '';
      if (fact.kind === 'call' && fact.callId !== null) toolOf.set(key, fact.tool);
      if (fact.kind === 'result') {
        if (fact.callId !== null) answered.add(key);
        if (fact.tool === null && toolOf.has(key)) fact = { ...fact, tool: toolOf.get(key)! };
        if (fact.isError && denied(fact.content, own(value, 'toolUseResult'))) fact = { ...fact, errorClass: 'permission_denied', errorCode: 'permission_denied' };
      }
      sink.record(toRecord(fact, place));
    }
  });
}

function denied(content: unknown, toolUseResult: unknown): boolean {
  const texts: string[] = [];
  if (typeof content === 'string') texts.push(content);
  if (Array.isArray(content)) for (const part of content) if (isObject(part) && typeof own(part, 'text') === 'string') texts.push(own(part, 'text') as string);
  if (typeof toolUseResult === 'string') texts.push(toolUseResult);
  return texts.some((text) => DENIED.test(text) || text === 'User rejected tool use');
}

