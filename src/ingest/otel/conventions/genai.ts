import { isObject, own } from '../../facts/fields.js';
import { catalogFrom, idText, payloadIsError, setCatalog, toolFacts, type CallFact, type ResultFact, type SpanFacts } from '../facts.js';
import { attrStr, jsonish, type OtelSpan } from '../span.js';

/** `gen_ai.operation.name` values of a model request. */
const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

/**
 * OpenTelemetry GenAI semantic conventions: `execute_tool` spans with
 * `gen_ai.tool.{name,call.id,call.arguments,call.result}`, model spans with
 * `gen_ai.tool.definitions` (the catalog) and `gen_ai.input.messages` /
 * `gen_ai.output.messages` whose parts are `tool_call` and `tool_call_response`.
 */
export function mapGenAi(span: OtelSpan, facts: SpanFacts): void {
  const attrs = span.attrs;
  const operation = attrStr(attrs, 'gen_ai.operation.name');
  if (operation === 'execute_tool' || (operation === null && attrs.has('gen_ai.tool.call.id') && attrs.has('gen_ai.tool.name'))) {
    const tool = toolFacts(facts);
    tool.name ??= attrStr(attrs, 'gen_ai.tool.name');
    tool.id ??= idText(attrs.get('gen_ai.tool.call.id'));
    if (tool.args === undefined && attrs.has('gen_ai.tool.call.arguments')) tool.args = jsonish(attrs.get('gen_ai.tool.call.arguments'));
    if (tool.result === undefined && attrs.has('gen_ai.tool.call.result')) {
      tool.result = attrs.get('gen_ai.tool.call.result');
      tool.resultIsError ||= payloadIsError(jsonish(tool.result));
    }
    return;
  }
  const input = attrs.get('gen_ai.input.messages');
  const output = attrs.get('gen_ai.output.messages');
  if ((operation !== null && MODEL_OPERATIONS.has(operation)) || input !== undefined || output !== undefined) facts.model = true;
  if (attrs.has('gen_ai.tool.definitions')) setCatalog(facts, catalogFrom(jsonish(attrs.get('gen_ai.tool.definitions'))));
  if (input !== undefined) messageParts(jsonish(input), facts.historyCalls, facts.historyResults);
  if (output !== undefined) messageParts(jsonish(output), facts.outputCalls, null);
}

/** Collects `tool_call` parts (and, for input, `tool_call_response` parts) from a message list. */
function messageParts(messages: unknown, calls: CallFact[], results: ResultFact[] | null): void {
  if (!Array.isArray(messages)) return;
  for (const message of messages) {
    if (!isObject(message)) continue;
    const parts = own(message, 'parts');
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      if (!isObject(part)) continue;
      const type = own(part, 'type');
      if (type === 'tool_call') {
        const name = own(part, 'name');
        if (typeof name === 'string') calls.push({ id: idText(own(part, 'id')), name, args: jsonish(own(part, 'arguments')) });
      } else if (type === 'tool_call_response' && results !== null) {
        const content = own(part, 'response') ?? own(part, 'result');
        const name = own(part, 'name');
        results.push({ id: idText(own(part, 'id')), name: typeof name === 'string' ? name : null, content, isError: payloadIsError(jsonish(content)) });
      }
    }
  }
}
