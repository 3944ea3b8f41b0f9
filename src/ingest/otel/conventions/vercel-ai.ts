import { isObject, own } from '../../facts/fields.js';
import type { CatalogTool } from '../../../model/records.js';
import { catalogTool, idText, payloadIsError, setCatalog, toolFacts } from '../facts.js';
import type { CallFact, ResultFact, SpanFacts } from '../facts.js';
import { attrStr, jsonish, type OtelSpan } from '../span.js';

/** Operation ids of one model request (the outer `ai.generateText` span spans several steps). */
const MODEL_OPERATIONS = new Set(['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.generateObject.doGenerate', 'ai.streamObject.doStream']);

/**
 * Vercel AI SDK telemetry: `ai.toolCall` spans with `ai.toolCall.{id,name,args,result}`;
 * model step spans with `ai.prompt.tools` (the catalog, a list of JSON strings),
 * `ai.prompt.messages` (history: `tool-call` / `tool-result` parts) and
 * `ai.response.toolCalls` (output).
 */
export function mapVercelAi(span: OtelSpan, facts: SpanFacts): void {
  const attrs = span.attrs;
  const operation = attrStr(attrs, 'ai.operationId') ?? attrStr(attrs, 'operation.name');
  if (operation === 'ai.toolCall' || attrs.has('ai.toolCall.name')) {
    const tool = toolFacts(facts);
    tool.name ??= attrStr(attrs, 'ai.toolCall.name');
    tool.id ??= idText(attrs.get('ai.toolCall.id'));
    if (tool.args === undefined && attrs.has('ai.toolCall.args')) tool.args = jsonish(attrs.get('ai.toolCall.args'));
    if (tool.result === undefined && attrs.has('ai.toolCall.result')) {
      tool.result = attrs.get('ai.toolCall.result');
      tool.resultIsError ||= payloadIsError(jsonish(tool.result));
    }
    return;
  }
  const isStep = operation !== null && [...MODEL_OPERATIONS].some((op) => operation === op || operation.startsWith(`${op} `));
  if (!isStep && !attrs.has('ai.prompt.tools') && !attrs.has('ai.response.toolCalls')) return;
  facts.model = true;
  const tools: CatalogTool[] = [];
  const listed = attrs.get('ai.prompt.tools');
  for (const item of Array.isArray(listed) ? listed : []) {
    const tool = catalogTool(jsonish(item));
    if (tool) tools.push(tool);
  }
  setCatalog(facts, tools);
  promptParts(jsonish(attrs.get('ai.prompt.messages')), facts.historyCalls, facts.historyResults);
  const output = jsonish(attrs.get('ai.response.toolCalls'));
  for (const call of Array.isArray(output) ? output : []) {
    const fact = sdkCall(call);
    if (fact) facts.outputCalls.push(fact);
  }
}

/** `{toolCallId, toolName, args | input}` as the SDK writes a call (args may be a JSON string). */
function sdkCall(value: unknown): CallFact | null {
  if (!isObject(value)) return null;
  const name = own(value, 'toolName');
  if (typeof name !== 'string') return null;
  return { id: idText(own(value, 'toolCallId')), name, args: jsonish(own(value, 'args') ?? own(value, 'input')) };
}

function promptParts(messages: unknown, calls: CallFact[], results: ResultFact[]): void {
  if (!Array.isArray(messages)) return;
  for (const message of messages) {
    const content = isObject(message) ? own(message, 'content') : undefined;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (!isObject(part)) continue;
      const type = own(part, 'type');
      if (type === 'tool-call') {
        const fact = sdkCall(part);
        if (fact) calls.push(fact);
      } else if (type === 'tool-result') {
        const name = own(part, 'toolName');
        const payload = own(part, 'result') ?? own(part, 'output');
        const isError = own(part, 'isError') === true || (isObject(payload) && typeof own(payload, 'type') === 'string' && String(own(payload, 'type')).startsWith('error'));
        results.push({ id: idText(own(part, 'toolCallId')), name: typeof name === 'string' ? name : null, content: payload, isError });
      }
    }
  }
}
