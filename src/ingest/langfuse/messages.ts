import { idOf, isObject, own, str, type JsonObject } from '../facts/fields.js';
import { argsOf, type ToolFact } from '../facts/tool-facts.js';
import { plainMessage } from './langchain.js';

/**
 * Values that hold chat messages: a list, `{messages: [...]}`, a Responses API
 * response (`output` items), a Chat Completion (`choices[].message`), one
 * message, or any of these as JSON text.
 */
export function messagesIn(value: unknown): unknown[] {
  return messageList(value).map(plainMessage);
}

function messageList(value: unknown): unknown[] {
  const v = argsOf(value);
  if (Array.isArray(v)) return v;
  if (!isObject(v)) return [];
  for (const key of ['messages', 'output']) {
    const inner = own(v, key);
    if (Array.isArray(inner)) return inner;
  }
  const choices = own(v, 'choices');
  if (Array.isArray(choices)) return choices.map((choice) => (isObject(choice) ? own(choice, 'message') : undefined));
  return [v];
}

/** Langfuse's own extraction on a generation: `toolCalls` (JSON text `{id, arguments}`) with `toolCallNames` beside them. */
export function langfuseToolCalls(obj: JsonObject): ToolFact[] {
  const calls = own(obj, 'toolCalls');
  const names = own(obj, 'toolCallNames');
  if (!Array.isArray(calls) || !Array.isArray(names)) return [];
  const out: ToolFact[] = [];
  calls.forEach((raw, i) => {
    const call = argsOf(raw);
    const name = isObject(call) ? (str(call, 'name') ?? (typeof names[i] === 'string' ? (names[i] as string) : null)) : null;
    if (isObject(call) && name !== null) out.push({ kind: 'call', callId: idOf(call, 'id'), tool: name, args: argsOf(own(call, 'arguments') ?? own(call, 'input')) });
  });
  return out;
}
