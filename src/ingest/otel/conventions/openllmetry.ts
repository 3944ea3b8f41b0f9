import type { CatalogTool } from '../../../model/records.js';
import { idText, indexedGroups, payloadIsError, setCatalog, toolFacts, type CallFact, type SpanFacts } from '../facts.js';
import { attrStr, jsonish, type OtelSpan } from '../span.js';

/**
 * OpenLLMetry (Traceloop) flattened attributes: `gen_ai.prompt.N.{role,content,tool_call_id}`,
 * `gen_ai.prompt.N.tool_calls.M.{id,name,arguments}` (history),
 * `gen_ai.completion.N.tool_calls.M.*` (output), `llm.request.functions.N.{name,parameters}`
 * (the catalog); tool spans `traceloop.span.kind = tool` with `traceloop.entity.{name,input,output}`.
 */
export function mapOpenLlmetry(span: OtelSpan, facts: SpanFacts): void {
  const attrs = span.attrs;
  if (attrStr(attrs, 'traceloop.span.kind') === 'tool') {
    const tool = toolFacts(facts);
    tool.name ??= attrStr(attrs, 'traceloop.entity.name');
    if (tool.args === undefined && attrs.has('traceloop.entity.input')) tool.args = jsonish(attrs.get('traceloop.entity.input'));
    if (tool.result === undefined && attrs.has('traceloop.entity.output')) {
      tool.result = attrs.get('traceloop.entity.output');
      tool.resultIsError ||= payloadIsError(jsonish(tool.result));
    }
    return;
  }
  const prompts = indexedGroups(attrs, 'gen_ai.prompt.');
  const completions = indexedGroups(attrs, 'gen_ai.completion.');
  const functions = indexedGroups(attrs, 'llm.request.functions.');
  if (prompts.length === 0 && completions.length === 0 && functions.length === 0 && !attrs.has('llm.request.type')) return;
  facts.model = true;
  const tools: CatalogTool[] = [];
  for (const [, fn] of functions) {
    const name = attrStr(fn, 'name');
    if (name === null) continue;
    const schema = jsonish(fn.get('parameters'));
    tools.push(schema === undefined ? { name, schemaSha256: null } : { name, schema, schemaSha256: null });
  }
  setCatalog(facts, tools);
  for (const [, prompt] of prompts) {
    facts.historyCalls.push(...flatCalls(prompt));
    const callId = idText(prompt.get('tool_call_id'));
    if (callId !== null && attrStr(prompt, 'role') === 'tool') {
      facts.historyResults.push({ id: callId, name: attrStr(prompt, 'name'), content: prompt.get('content'), isError: false });
    }
  }
  for (const [, completion] of completions) facts.outputCalls.push(...flatCalls(completion));
}

function flatCalls(message: ReadonlyMap<string, unknown>): CallFact[] {
  const out: CallFact[] = [];
  for (const [, call] of indexedGroups(message, 'tool_calls.')) {
    const name = attrStr(call, 'name');
    if (name !== null) out.push({ id: idText(call.get('id')), name, args: jsonish(call.get('arguments')) });
  }
  return out;
}
