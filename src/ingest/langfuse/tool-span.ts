import { idOf, own, str, type JsonObject } from '../facts/fields.js';
import { argsOf } from '../facts/tool-facts.js';
import { isToolMessage } from './langchain.js';

/** Langfuse stores some outputs JSON-encoded a second time (`"\"text\""`); decode that layer. */
export function unquote(value: unknown): unknown {
  if (typeof value !== 'string' || !value.startsWith('"')) return argsOf(value);
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * Whether a SPAN (or other non-GENERATION, non-TOOL) observation is one tool
 * execution: GenAI attributes that name the tool or its call (Koog), an
 * OpenInference TOOL span with a `tool.name` (Agno), or an output that is a
 * LangChain ToolMessage (LangGraph JS). An OpenInference span of another kind
 * that mentions a tool (BeeAI's agent updates) is not one.
 */
export function isToolSpan(obj: JsonObject, attrs: JsonObject): boolean {
  const kind = str(attrs, 'openinference.span.kind');
  if (kind !== null && kind.toUpperCase() !== 'TOOL') return false;
  if (idOf(attrs, 'gen_ai.tool.call.id') !== null || str(attrs, 'gen_ai.tool.name') !== null) return true;
  if (str(attrs, 'tool.name') !== null) return true;
  return isToolMessage(unquote(own(obj, 'output')));
}

/** A span that says it is a tool's (an OpenInference TOOL kind, a GenAI execute_tool) but is not read as one. */
export function saysTool(attrs: JsonObject): boolean {
  return (str(attrs, 'openinference.span.kind') ?? '').toUpperCase() === 'TOOL' || str(attrs, 'gen_ai.operation.name') === 'execute_tool';
}
