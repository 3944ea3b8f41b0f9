import { isObject } from './fields.js';

/** Keys that carry a tool call or a tool result in the formats agents write. */
const TOOL_KEYS = new Set([
  'tool_calls', 'toolcalls', 'tool_call', 'toolcall', 'tool_call_id', 'tool_use_id',
  'function_call', 'functioncall', 'function_response', 'functionresponse', 'tool_result', 'toolresult',
  'gen_ai.tool.name', 'gen_ai.tool.call.id', 'tool.name',
]);
/** `type` / `role` values that mark a tool call or result block. */
const TOOL_TYPES = new Set(['tool_use', 'tool_result', 'function_call', 'function_call_output', 'custom_tool_call', 'tool_call', 'tool_result', 'tool', 'toolmessage']);
/**
 * Span attributes whose value marks a tool span: Monocle's `span.type`
 * (`agentic.tool.invocation`) and `entity.N.type` (`tool.<framework>`), and
 * OpenInference's `openinference.span.kind` (`TOOL`), GenAI's `gen_ai.operation.name` (`execute_tool`).
 */
const SPAN_KIND_KEYS = new Set(['span.type', 'openinference.span.kind', 'gen_ai.operation.name']);
const SPAN_TOOL_KINDS = new Set(['agentic.tool.invocation', 'tool', 'execute_tool']);
const ENTITY_TYPE = /^entity\.\d{1,3}\.type$/;

const MAX_DEPTH = 8;
const MAX_NODES = 5_000;

/**
 * Whether a record a parser skipped looks like it holds a tool call or result:
 * a key or a `type`/`role` value that names one, at most 8 levels down and
 * 5,000 values in (a bounded look, never a full walk of hostile input).
 */
export function looksLikeToolRecord(value: unknown): boolean {
  const budget = { nodes: MAX_NODES };
  return visit(value, 0, budget);
}

function visit(value: unknown, depth: number, budget: { nodes: number }): boolean {
  if (depth > MAX_DEPTH || budget.nodes <= 0 || value === null || typeof value !== 'object') return false;
  budget.nodes -= 1;
  if (Array.isArray(value)) {
    for (const item of value) if (visit(item, depth + 1, budget)) return true;
    return false;
  }
  if (!isObject(value)) return false;
  for (const key of Object.keys(value)) {
    budget.nodes -= 1;
    if (budget.nodes <= 0) return false;
    const lower = key.toLowerCase();
    const item = value[key];
    if (TOOL_KEYS.has(lower) && item !== null && item !== undefined && !(Array.isArray(item) && item.length === 0)) return true;
    if ((lower === 'type' || lower === 'role') && typeof item === 'string' && TOOL_TYPES.has(item.toLowerCase())) return true;
    if (typeof item === 'string' && isToolSpanKind(lower, item.toLowerCase())) return true;
    if (lower === 'id' && Array.isArray(item) && item.some((part) => part === 'ToolMessage')) return true;
    if (typeof item === 'object' && visit(item, depth + 1, budget)) return true;
  }
  return false;
}

function isToolSpanKind(key: string, value: string): boolean {
  if (SPAN_KIND_KEYS.has(key)) return SPAN_TOOL_KINDS.has(value);
  return ENTITY_TYPE.test(key) && value.startsWith('tool.');
}
