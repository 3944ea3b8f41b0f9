import { isObject, num, own, str, type JsonObject } from '../facts/fields.js';

/** The most events of one streamed body that are assembled (the body itself is within max-document-bytes). */
const MAX_EVENTS = 100_000;
/** The most choices / content blocks one stream may open (an index past it is left out). */
const MAX_PARTS = 256;

/**
 * The JSON `data:` payloads of a server-sent event stream, in order: each
 * event's data lines joined (a blank line ends an event), `[DONE]` and other
 * non-JSON payloads left out, at most 100,000 events.
 */
export function streamEvents(text: string): JsonObject[] {
  const out: JsonObject[] = [];
  let data: string[] = [];
  const end = () => {
    if (data.length === 0) return;
    try {
      const value = JSON.parse(data.join('\n')) as unknown;
      if (isObject(value)) out.push(value);
    } catch {
      // `[DONE]`, a keep-alive or a broken payload: not an event with content
    }
    data = [];
  };
  for (const raw of text.split('\n')) {
    if (out.length >= MAX_EVENTS) break;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') end();
    else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  end();
  return out;
}

/**
 * A streamed model response assembled into the response the same request
 * without `stream` returns: OpenAI Chat Completions chunks (`choices[].delta`,
 * `tool_calls[]` by `index` with `function.arguments` in pieces, or the legacy
 * `function_call`) into `{created, choices: [{message}]}`; an OpenAI Responses
 * stream into its `response.completed` response; an Anthropic Messages stream
 * (`message_start`, `content_block_start` / `_delta` with `input_json_delta`)
 * into the assistant message with its content blocks; Gemini chunks into one
 * `candidates` response. Null for any other stream.
 */
export function assembleStream(events: readonly JsonObject[]): JsonObject | null {
  if (events.some((e) => str(e, 'object') === 'chat.completion.chunk')) return chatCompletion(events);
  const completed = events.find((e) => str(e, 'type') === 'response.completed' && isObject(own(e, 'response')));
  if (completed) return own(completed, 'response') as JsonObject;
  if (events.some((e) => str(e, 'type') === 'message_start')) return anthropicMessage(events);
  if (events.length > 0 && events.every((e) => Array.isArray(own(e, 'candidates')))) return geminiResponse(events);
  return null;
}

/**
 * Gemini `streamGenerateContent` chunks (server-sent events, or the JSON list it
 * returns without `alt=sse`) as one response: the first candidate's parts of every
 * chunk, in order (a `functionCall` part comes whole in one chunk).
 */
export function geminiResponse(chunks: readonly JsonObject[]): JsonObject {
  const parts: unknown[] = [];
  for (const chunk of chunks.slice(0, MAX_EVENTS)) {
    const first = (own(chunk, 'candidates') as unknown[])[0];
    const content = isObject(first) ? own(first, 'content') : undefined;
    const more = isObject(content) ? own(content, 'parts') : undefined;
    if (Array.isArray(more)) parts.push(...more);
  }
  return { candidates: [{ content: { role: 'model', parts } }] } as JsonObject;
}

interface ChatCall {
  id: unknown;
  name: string;
  arguments: string;
}

function chatCompletion(events: readonly JsonObject[]): JsonObject {
  const choices = new Map<number, { role: string; content: string | null; calls: Map<number, ChatCall>; fn: { name: string; arguments: string } | null; finish: unknown }>();
  let created: number | null = null;
  for (const event of events) {
    created ??= num(event, 'created');
    const list = own(event, 'choices');
    if (!Array.isArray(list)) continue;
    for (const choice of list) {
      if (!isObject(choice)) continue;
      const index = num(choice, 'index') ?? 0;
      if (!Number.isInteger(index) || index < 0 || index >= MAX_PARTS) continue;
      let entry = choices.get(index);
      if (!entry) choices.set(index, (entry = { role: 'assistant', content: null, calls: new Map(), fn: null, finish: null }));
      if (own(choice, 'finish_reason') !== null && own(choice, 'finish_reason') !== undefined) entry.finish = own(choice, 'finish_reason');
      const delta = own(choice, 'delta');
      if (!isObject(delta)) continue;
      entry.role = str(delta, 'role') ?? entry.role;
      const text = str(delta, 'content');
      if (text !== null) entry.content = (entry.content ?? '') + text;
      const fn = own(delta, 'function_call');
      if (isObject(fn)) {
        entry.fn ??= { name: '', arguments: '' };
        entry.fn.name += str(fn, 'name') ?? '';
        entry.fn.arguments += str(fn, 'arguments') ?? '';
      }
      const calls = own(delta, 'tool_calls');
      if (!Array.isArray(calls)) continue;
      for (const piece of calls) {
        if (!isObject(piece)) continue;
        const at = num(piece, 'index') ?? entry.calls.size;
        if (!Number.isInteger(at) || at < 0 || at >= MAX_PARTS) continue;
        let call = entry.calls.get(at);
        if (!call) entry.calls.set(at, (call = { id: null, name: '', arguments: '' }));
        if (typeof own(piece, 'id') === 'string' && own(piece, 'id') !== '') call.id = own(piece, 'id');
        const f = own(piece, 'function');
        if (isObject(f)) {
          call.name += str(f, 'name') ?? '';
          call.arguments += str(f, 'arguments') ?? '';
        }
      }
    }
  }
  const out = [...choices].sort(([a], [b]) => a - b).map(([index, c]) => {
    const message: Record<string, unknown> = { role: c.role, content: c.content };
    if (c.calls.size > 0) {
      message['tool_calls'] = [...c.calls].sort(([a], [b]) => a - b).map(([, call]) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
    }
    if (c.fn) message['function_call'] = c.fn;
    return { index, message, finish_reason: c.finish };
  });
  return { object: 'chat.completion', created, choices: out } as JsonObject;
}

function anthropicMessage(events: readonly JsonObject[]): JsonObject {
  const start = events.find((e) => str(e, 'type') === 'message_start');
  const head = start && isObject(own(start, 'message')) ? (own(start, 'message') as JsonObject) : null;
  const blocks = new Map<number, { block: Record<string, unknown>; json: string | null }>();
  for (const event of events) {
    const type = str(event, 'type');
    const index = num(event, 'index');
    if (index === null || !Number.isInteger(index) || index < 0 || index >= MAX_PARTS) continue;
    if (type === 'content_block_start') {
      const block = own(event, 'content_block');
      if (isObject(block)) blocks.set(index, { block: { ...block }, json: null });
    } else if (type === 'content_block_delta') {
      const entry = blocks.get(index);
      const delta = own(event, 'delta');
      if (!entry || !isObject(delta)) continue;
      const kind = str(delta, 'type');
      if (kind === 'text_delta') entry.block['text'] = `${typeof entry.block['text'] === 'string' ? entry.block['text'] : ''}${str(delta, 'text') ?? ''}`;
      if (kind === 'input_json_delta') entry.json = (entry.json ?? '') + (str(delta, 'partial_json') ?? '');
    }
  }
  const content = [...blocks].sort(([a], [b]) => a - b).map(([, { block, json }]) => {
    if (json === null) return block;
    try {
      return { ...block, input: JSON.parse(json === '' ? '{}' : json) as unknown };
    } catch {
      // The tool input as the stream gave it: the call's arguments are then not JSON (invalid-arguments can say so)
      return { ...block, input: json };
    }
  });
  return { id: head ? own(head, 'id') : null, type: 'message', role: 'assistant', content } as JsonObject;
}
