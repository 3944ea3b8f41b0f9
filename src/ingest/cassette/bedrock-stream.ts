import { isObject, num, own, str, type JsonObject } from '../facts/fields.js';
import { decodeEventStream, startsWithEventStream } from './aws-event-stream.js';
import { assembleStream } from './event-stream.js';

/** What an event stream body stands for: the response it assembles into (or null), and what stopped its decoding. */
export interface EventStreamBody {
  readonly value: JsonObject | null;
  readonly problem: string | null;
  /** How many messages were decoded. */
  readonly messages: number;
}

/** The most content blocks one Converse stream may open (an index past it is left out). */
const MAX_BLOCKS = 256;
const CONVERSE_EVENTS = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop']);

/**
 * Whether a recorded body is an AWS event stream: its `Content-Type` says so, or its
 * bytes start with a prelude whose CRC32 holds (cassettes often record no headers).
 */
export function isEventStream(bytes: Uint8Array, holder: JsonObject): boolean {
  return declaredEventStream(own(holder, 'headers')) || startsWithEventStream(bytes);
}

/** The bytes of a body written as base64 text when they are an event stream, else null. */
export function base64EventStream(text: string): Buffer | null {
  if (text.length < 24 || !/^[A-Za-z0-9+/=\s]+$/.test(text.slice(0, 4096))) return null;
  // The prelude first (its 16 bytes are the first 24 characters when no line breaks come before them).
  if (!/\s/.test(text.slice(0, 24)) && !startsWithEventStream(Buffer.from(text.slice(0, 24), 'base64'))) return null;
  const bytes = Buffer.from(text, 'base64');
  return startsWithEventStream(bytes) ? bytes : null;
}

function declaredEventStream(headers: unknown): boolean {
  if (!isObject(headers)) return false;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'content-type') continue;
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.toLowerCase().includes('application/vnd.amazon.eventstream')) return true;
  }
  return false;
}

/**
 * An event stream body decoded and read as the response it carries. Each message's
 * payload is a JSON object; an event is read as `{<event type>: payload}`, as the AWS
 * SDKs give it. A Bedrock Agents `InvokeAgent` stream becomes `{agentTraces: [...],
 * completion}` (its `trace` events' payloads, its `chunk` texts); a Converse stream
 * the Converse response (`output.message.content` with `toolUse` blocks whose input
 * is joined from its deltas); an `InvokeModelWithResponseStream` the model's own
 * stream (each `chunk`'s base64 `bytes` is one of its JSON events) assembled as
 * src/ingest/cassette/event-stream.ts does (Amazon Nova's, Converse events, as a Converse
 * stream). Null for any other stream.
 */
export function eventStreamBody(bytes: Uint8Array): EventStreamBody {
  const decoded = decodeEventStream(bytes);
  const events: Array<{ type: string; value: JsonObject }> = [];
  let exception: string | null = null;
  for (const message of decoded.messages) {
    let value: unknown;
    try {
      value = JSON.parse(message.payload.toString('utf8')) as unknown;
    } catch {
      value = null;
    }
    if (message.messageType === 'exception' || message.messageType === 'error') exception ??= message.eventType ?? 'error';
    else if (isObject(value) && message.eventType !== null) events.push({ type: message.eventType, value });
  }
  const problem = decoded.problem ?? (exception === null ? null : `event stream ends with the exception ${JSON.stringify(exception.slice(0, 80))}`);
  return { value: streamValue(events), problem, messages: decoded.messages.length };
}

function streamValue(events: ReadonlyArray<{ type: string; value: JsonObject }>): JsonObject | null {
  if (events.length === 0) return null;
  if (events.some((e) => e.type === 'trace')) return agentStream(events);
  if (events.some((e) => CONVERSE_EVENTS.has(e.type))) return converseResponse(events);
  const inner: JsonObject[] = [];
  for (const { type, value } of events) {
    const chunk = type === 'chunk' ? decodedChunk(value) : null;
    if (isObject(chunk)) inner.push(chunk);
  }
  // An agent's answer without traces: chunks of text, no model events.
  if (inner.length === 0) return events.every((e) => e.type === 'chunk') ? agentStream(events) : null;
  // Amazon Nova's own stream: Converse events, each one a `{<event type>: payload}` object.
  const converse = inner.flatMap((e) => Object.entries(e).filter(([type, value]) => CONVERSE_EVENTS.has(type) && isObject(value)).map(([type, value]) => ({ type, value: value as JsonObject })));
  if (converse.length > 0) return converseResponse(converse);
  return assembleStream(inner);
}

/** A `chunk`'s `bytes` (base64) decoded: JSON when it is, else its text. */
function decodedChunk(chunk: JsonObject): unknown {
  const encoded = str(chunk, 'bytes');
  if (encoded === null) return null;
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function agentStream(events: ReadonlyArray<{ type: string; value: JsonObject }>): JsonObject {
  const agentTraces = events.filter((e) => e.type === 'trace').map((e) => e.value);
  const texts = events.filter((e) => e.type === 'chunk').map((e) => decodedChunk(e.value)).filter((t): t is string => typeof t === 'string');
  return { agentTraces, completion: texts.join('') } as JsonObject;
}

/** A ConverseStream as the Converse response it stands for. */
function converseResponse(events: ReadonlyArray<{ type: string; value: JsonObject }>): JsonObject {
  let role = 'assistant';
  let stopReason: string | null = null;
  const blocks = new Map<number, { block: Record<string, unknown>; input: string | null }>();
  const blockAt = (index: number) => {
    let entry = blocks.get(index);
    if (!entry) blocks.set(index, (entry = { block: {}, input: null }));
    return entry;
  };
  for (const { type, value } of events) {
    if (type === 'messageStart') role = str(value, 'role') ?? role;
    if (type === 'messageStop') stopReason = str(value, 'stopReason');
    const index = num(value, 'contentBlockIndex');
    if (index === null || !Number.isInteger(index) || index < 0 || index >= MAX_BLOCKS) continue;
    const start = own(value, 'start');
    const toolUse = isObject(start) ? own(start, 'toolUse') : undefined;
    if (type === 'contentBlockStart' && isObject(toolUse)) blockAt(index).block['toolUse'] = { ...toolUse };
    const delta = own(value, 'delta');
    if (type !== 'contentBlockDelta' || !isObject(delta)) continue;
    const entry = blockAt(index);
    const text = str(delta, 'text');
    if (text !== null) entry.block['text'] = `${typeof entry.block['text'] === 'string' ? entry.block['text'] : ''}${text}`;
    const piece = own(delta, 'toolUse');
    if (isObject(piece)) entry.input = (entry.input ?? '') + (str(piece, 'input') ?? '');
  }
  const content = [...blocks].sort(([a], [b]) => a - b).map(([, { block, input }]) => {
    const toolUse = block['toolUse'];
    if (!isObject(toolUse) || input === null) return block;
    return { ...block, toolUse: { ...toolUse, input: parsedInput(input) } };
  });
  return { output: { message: { role, content } }, stopReason } as JsonObject;
}

/** A tool input joined from its deltas: JSON when it parses, else the text as given (invalid-arguments can say so). */
function parsedInput(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text) as unknown;
  } catch {
    return text;
  }
}
