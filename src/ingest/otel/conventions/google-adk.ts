import { isObject, own, type JsonObject } from '../../facts/fields.js';
import { catalogFrom, idText, payloadIsError, setCatalog, toolFacts, type CallFact, type ResultFact, type SpanFacts } from '../facts.js';
import { jsonish, type OtelSpan } from '../span.js';

/**
 * Google Agent Development Kit: `call_llm` spans carry `gcp.vertex.agent.llm_request`
 * (config.tools[].function_declarations = the catalog; contents[].parts[] with
 * `function_call` / `function_response` = history) and `gcp.vertex.agent.llm_response`
 * (parts with `function_call` = output); tool spans carry
 * `gcp.vertex.agent.tool_call_args` and `gcp.vertex.agent.tool_response`.
 */
export function mapGoogleAdk(span: OtelSpan, facts: SpanFacts): void {
  const attrs = span.attrs;
  if (attrs.has('gcp.vertex.agent.tool_call_args') || attrs.has('gcp.vertex.agent.tool_response')) {
    const tool = toolFacts(facts);
    if (tool.args === undefined && attrs.has('gcp.vertex.agent.tool_call_args')) tool.args = jsonish(attrs.get('gcp.vertex.agent.tool_call_args'));
    if (tool.result === undefined && attrs.has('gcp.vertex.agent.tool_response')) {
      tool.result = attrs.get('gcp.vertex.agent.tool_response');
      tool.resultIsError ||= payloadIsError(jsonish(tool.result));
    }
    return;
  }
  const request = jsonish(attrs.get('gcp.vertex.agent.llm_request'));
  const response = jsonish(attrs.get('gcp.vertex.agent.llm_response'));
  const hasRequest = isObject(request) && Object.keys(request).length > 0;
  if (!hasRequest && !(isObject(response) && Object.keys(response).length > 0)) return;
  facts.model = true;
  if (isObject(request)) {
    const config = own(request, 'config');
    const tools = isObject(config) ? own(config, 'tools') : undefined;
    const declared = [];
    for (const tool of Array.isArray(tools) ? tools : []) {
      if (isObject(tool)) declared.push(...catalogFrom(own(tool, 'function_declarations') ?? own(tool, 'functionDeclarations')));
    }
    setCatalog(facts, declared);
    const contents = own(request, 'contents');
    for (const content of Array.isArray(contents) ? contents : []) {
      if (isObject(content)) contentParts(content, facts.historyCalls, facts.historyResults);
    }
  }
  if (isObject(response)) {
    const content = own(response, 'content');
    if (isObject(content)) contentParts(content, facts.outputCalls, null);
  }
}

/** The `function_call` / `functionCall` and `function_response` parts of one Content (also read by the ADK session parser). */
export function contentParts(content: JsonObject, calls: CallFact[], results: ResultFact[] | null): void {
  const parts = own(content, 'parts');
  for (const part of Array.isArray(parts) ? parts : []) {
    if (!isObject(part)) continue;
    const call = own(part, 'function_call') ?? own(part, 'functionCall');
    if (isObject(call) && typeof own(call, 'name') === 'string') {
      calls.push({ id: idText(own(call, 'id')), name: own(call, 'name') as string, args: own(call, 'args') });
    }
    const response = own(part, 'function_response') ?? own(part, 'functionResponse');
    if (results !== null && isObject(response)) {
      const payload = own(response, 'response');
      const name = own(response, 'name');
      results.push({ id: idText(own(response, 'id')), name: typeof name === 'string' ? name : null, content: payload, isError: payloadIsError(payload) });
    }
  }
}
