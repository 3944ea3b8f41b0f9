import { gunzipSync, inflateSync } from 'node:zlib';
import { limitText } from '../../io/limits.js';
import { isObject, own, type JsonObject } from '../facts/fields.js';
import { argsOf } from '../facts/tool-facts.js';
import { assembleStream, geminiResponse, streamEvents } from './event-stream.js';
import { base64EventStream, eventStreamBody, isEventStream } from './bedrock-stream.js';

/**
 * What a recorded body held: a JSON object, nothing, something left out (with why), or a
 * body that could not be inflated or decoded. `problem` (a JSON object read from the part of
 * an event stream before it) and `unread` (a broken event stream) mean content was not read.
 */
export type BodyRead =
  | { readonly kind: 'json'; readonly value: JsonObject; readonly problem?: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'skipped'; readonly reason: string; readonly value?: unknown }
  | { readonly kind: 'broken'; readonly reason: string; readonly unread?: true };

/** Inflated bytes left for the bodies of one cassette (bounded by max-document-bytes in all). */
export interface InflateBudget {
  left: number;
  readonly limit: number;
  /**
   * The last few large bodies parsed, by their text: an aliased body (`*body`, read as a
   * copy of its anchor) is parsed once, not once per alias. Bounded (PARSED_BODIES).
   */
  readonly parsed?: Map<string, unknown>;
}

/** Bodies at least this long are remembered once parsed; at most PARSED_BODIES of them. */
const PARSED_BODY_BYTES = 64 * 1024;
const PARSED_BODIES = 8;

/**
 * A request or response body as VCR.py records it: a JSON string, `{string:
 * "..."}`, a mapping (pydantic-ai's `parsed_body`), or `!!binary` bytes (what it writes when
 * `decode_compressed_response` is off), gzip or deflate compressed or plain, or an AWS
 * event stream (Bedrock: `!!binary` or base64; src/ingest/cassette/bedrock-stream.ts).
 * Compressed bodies are inflated within the budget. A streamed body (server-sent
 * events) of OpenAI or Anthropic is assembled into the response it stands for;
 * another event stream, or a body that is not JSON, is left out with its reason.
 */
export function readBody(holder: unknown, budget: InflateBudget): BodyRead {
  if (!isObject(holder)) return { kind: 'none' };
  // pydantic-ai's recorder keeps a JSON body as a YAML mapping under `parsed_body`.
  const body = own(holder, 'parsed_body') ?? own(holder, 'body') ?? own(holder, 'content');
  let raw = isObject(body) && own(body, 'string') !== undefined ? own(body, 'string') : body;
  if (raw === undefined || raw === null || raw === '') return { kind: 'none' };
  const stream = raw instanceof Uint8Array ? raw : typeof raw === 'string' ? base64EventStream(raw) : null;
  if (stream !== null && isEventStream(stream, holder)) return eventStreamRead(stream);
  if (raw instanceof Uint8Array) {
    const text = inflate(raw, budget);
    if (typeof text !== 'string') return text;
    raw = text;
  }
  const value = parsedBody(raw, budget.parsed);
  if (isObject(value)) return { kind: 'json', value };
  // Gemini's streamGenerateContent without alt=sse: a JSON list of response chunks.
  if (Array.isArray(value) && value.length > 0 && value.every((c) => isObject(c) && Array.isArray(own(c, 'candidates')))) {
    return { kind: 'json', value: geminiResponse(value as JsonObject[]) };
  }
  if (typeof raw === 'string' && /^\s*(event|data):/.test(raw)) {
    const events = streamEvents(raw);
    const assembled = assembleStream(events);
    if (assembled) return { kind: 'json', value: assembled };
    return { kind: 'skipped', reason: 'body is an event stream of no API this reader knows (not read)', value: events.slice(0, 1000) };
  }
  return { kind: 'skipped', reason: 'body is not a JSON object' };
}

/** An AWS event stream body (Bedrock): the response it carries, what stopped its decoding. */
function eventStreamRead(bytes: Uint8Array): BodyRead {
  const { value, problem, messages } = eventStreamBody(bytes);
  if (value !== null) return problem === null ? { kind: 'json', value } : { kind: 'json', value, problem };
  if (problem !== null) return { kind: 'broken', reason: `${problem}${messages > 0 ? ` (${messages} message(s) before it)` : ''}`, unread: true };
  return { kind: 'skipped', reason: 'body is an AWS event stream of no API this reader knows (not read)' };
}

/** `argsOf(raw)`, through the cache of large bodies when there is one. */
function parsedBody(raw: unknown, cache: Map<string, unknown> | undefined): unknown {
  if (cache === undefined || typeof raw !== 'string' || raw.length < PARSED_BODY_BYTES) return argsOf(raw);
  if (cache.has(raw)) return cache.get(raw);
  const value = argsOf(raw);
  if (cache.size >= PARSED_BODIES) cache.delete(cache.keys().next().value!);
  cache.set(raw, value);
  return value;
}

function inflate(bytes: Uint8Array, budget: InflateBudget): string | BodyRead {
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const deflate = bytes[0] === 0x78 && (bytes[0]! * 256 + bytes[1]!) % 31 === 0;
  if (!gzip && !deflate) return Buffer.from(bytes).toString('utf8');
  if (budget.left <= 0) return { kind: 'broken', reason: `compressed body not inflated: the cassette's bodies already reached the ${limitText('maxDocumentBytes', budget.limit)}` };
  try {
    const out = (gzip ? gunzipSync : inflateSync)(bytes, { maxOutputLength: budget.left });
    budget.left -= out.length;
    return out.toString('utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      budget.left = 0;
      return { kind: 'broken', reason: `compressed body inflates past the ${limitText('maxDocumentBytes', budget.limit)}` };
    }
    return { kind: 'broken', reason: `${gzip ? 'gzip' : 'deflate'} body cannot be inflated (${code ?? 'corrupt data'})` };
  }
}
