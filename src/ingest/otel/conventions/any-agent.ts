import { isObject, own } from '../../facts/fields.js';
import { argsOf } from '../../facts/tool-facts.js';
import { payloadIsError, toolFacts, type CallFact, type SpanFacts } from '../facts.js';
import { attrStr, jsonish, type OtelSpan } from '../span.js';

/**
 * any-agent (mozilla-ai): `call_llm` spans whose JSON `gen_ai.output`
 * (`gen_ai.output.type: json`) lists the tools the model asked for as
 * `{"tool.name", "tool.args"}` entries, without call ids; `execute_tool` spans
 * with `gen_ai.tool.args` and the tool's result in `gen_ai.output`. The ids
 * (`gen_ai.tool.call.id`, when the framework gives one) are on the tool spans,
 * which are paired with the model's calls by order (pair-by-order.ts).
 */
export function mapAnyAgent(span: OtelSpan, facts: SpanFacts): void {
  const attrs = span.attrs;
  const operation = attrStr(attrs, 'gen_ai.operation.name');
  if (operation === 'call_llm') {
    facts.model = true;
    if (attrStr(attrs, 'gen_ai.output.type') !== 'json') return;
    const output = jsonish(attrs.get('gen_ai.output'));
    if (Array.isArray(output)) facts.outputCalls.push(...output.flatMap(toolEntry));
    return;
  }
  if (operation !== 'execute_tool' || !attrs.has('gen_ai.tool.args')) return;
  const tool = toolFacts(facts);
  if (tool.args === undefined) tool.args = argsOf(attrs.get('gen_ai.tool.args'));
  if (tool.result === undefined && attrs.has('gen_ai.output')) {
    tool.result = attrs.get('gen_ai.output');
    tool.resultIsError ||= payloadIsError(jsonish(tool.result));
  }
}

function toolEntry(entry: unknown): CallFact[] {
  if (!isObject(entry)) return [];
  const name = own(entry, 'tool.name');
  return typeof name === 'string' && name !== '' ? [{ id: null, name, args: argsOf(own(entry, 'tool.args')) }] : [];
}
