import type { CatalogTool } from '../../../model/records.js';
import { catalogTool, idText, indexedGroups, payloadIsError, setCatalog, toolFacts, type CallFact, type SpanFacts } from '../facts.js';
import { attrStr, jsonish, type OtelSpan } from '../span.js';

/**
 * OpenInference (Arize Phoenix): `openinference.span.kind` TOOL / LLM,
 * `tool.name`, `tool_call.id` (or `tool.id`), `input.value` / `output.value`, `llm.tools.N.tool.json_schema`,
 * `llm.{input,output}_messages.N.message.tool_calls.M.tool_call.{id,function.name,function.arguments}`,
 * `message.tool_call_id` on tool messages.
 */
export function mapOpenInference(span: OtelSpan, facts: SpanFacts): void {
  const attrs = span.attrs;
  const kind = attrStr(attrs, 'openinference.span.kind');
  if (kind === null) return;
  if (kind.toUpperCase() === 'TOOL') {
    const tool = toolFacts(facts);
    tool.name ??= attrStr(attrs, 'tool.name');
    tool.id ??= idText(attrs.get('tool_call.id')) ?? idText(attrs.get('message.tool_call_id')) ?? idText(attrs.get('tool.id'));
    if (tool.args === undefined && attrs.has('input.value')) tool.args = jsonish(attrs.get('input.value'));
    if (tool.result === undefined && attrs.has('output.value')) {
      tool.result = attrs.get('output.value');
      tool.resultIsError ||= payloadIsError(jsonish(tool.result));
    }
    return;
  }
  if (kind.toUpperCase() !== 'LLM') return;
  facts.model = true;
  const tools: CatalogTool[] = [];
  for (const [, group] of indexedGroups(attrs, 'llm.tools.')) {
    const tool = catalogTool(jsonish(group.get('tool.json_schema')));
    if (tool) tools.push(tool);
  }
  setCatalog(facts, tools);
  for (const [, message] of indexedGroups(attrs, 'llm.input_messages.')) {
    facts.historyCalls.push(...messageCalls(message));
    const callId = idText(message.get('message.tool_call_id'));
    if (attrStr(message, 'message.role') === 'tool' && callId !== null) {
      facts.historyResults.push({ id: callId, name: attrStr(message, 'message.name'), content: message.get('message.content'), isError: false });
    }
  }
  for (const [, message] of indexedGroups(attrs, 'llm.output_messages.')) facts.outputCalls.push(...messageCalls(message));
}

/** `message.tool_calls.M.tool_call.*` of one flattened message. */
function messageCalls(message: ReadonlyMap<string, unknown>): CallFact[] {
  const out: CallFact[] = [];
  for (const [, call] of indexedGroups(message, 'message.tool_calls.')) {
    const name = attrStr(call, 'tool_call.function.name');
    if (name === null) continue;
    out.push({ id: idText(call.get('tool_call.id')), name, args: jsonish(call.get('tool_call.function.arguments')) });
  }
  return out;
}
