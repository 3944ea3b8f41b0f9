import { isObject, own, str, type JsonObject } from '../facts/fields.js';
import { argsOf } from '../facts/tool-facts.js';

/** LangChain message classes and the `type` their plain form carries (what messageFacts reads). */
const MESSAGE_TYPES = new Map([
  ['ToolMessage', 'tool'],
  ['ToolMessageChunk', 'tool'],
  ['AIMessage', 'ai'],
  ['AIMessageChunk', 'ai'],
  ['HumanMessage', 'human'],
  ['SystemMessage', 'system'],
  ['ChatMessage', 'chat'],
  ['FunctionMessage', 'function'],
]);

/** The class name of a LangChain serialized constructor (`{"lc":1,"type":"constructor","id":[…,"ToolMessage"],"kwargs":{…}}`), or null. */
export function langChainClass(value: unknown): string | null {
  if (!isObject(value) || own(value, 'lc') !== 1 || str(value, 'type') !== 'constructor') return null;
  const id = own(value, 'id');
  if (!Array.isArray(id) || id.length === 0) return null;
  const last = id[id.length - 1];
  return typeof last === 'string' ? last : null;
}

/**
 * A message in the plain form messageFacts reads: a LangChain serialized
 * constructor becomes its kwargs with the class's `type` (ToolMessage → "tool",
 * with its tool_call_id and status); an assistant message whose `content` is
 * the JSON text of a tool-call list (Koog writes them so) gets them as
 * `tool_calls`. Anything else is returned as it is.
 */
export function plainMessage(value: unknown): unknown {
  const cls = langChainClass(value);
  if (cls !== null) {
    const kwargs = own(value as JsonObject, 'kwargs');
    const type = MESSAGE_TYPES.get(cls);
    if (!isObject(kwargs) || type === undefined) return value;
    // A null-prototype copy: the kwargs' keys are data.
    return Object.assign(Object.create(null) as JsonObject, kwargs, { type });
  }
  if (!isObject(value) || own(value, 'tool_calls') !== undefined) return value;
  const content = own(value, 'content');
  if (typeof content !== 'string' || !content.startsWith('[{')) return value;
  const calls = argsOf(content);
  if (!Array.isArray(calls) || calls.length === 0 || !calls.every(isFunctionCall)) return value;
  return Object.assign(Object.create(null) as JsonObject, value, { content: '', tool_calls: calls });
}

function isFunctionCall(call: unknown): boolean {
  if (!isObject(call)) return false;
  const fn = own(call, 'function');
  return isObject(fn) && str(fn, 'name') !== null;
}

/** A LangChain ToolMessage, serialized or plain (`type: "tool"` with a `tool_call_id`). */
export function isToolMessage(value: unknown): boolean {
  if (langChainClass(value) === 'ToolMessage') return true;
  return isObject(value) && str(value, 'type') === 'tool' && own(value, 'tool_call_id') !== undefined;
}
