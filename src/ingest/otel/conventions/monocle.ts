import type { OtelSpan } from '../span.js';
import { payloadIsError, toolFacts, type SpanFacts } from '../facts.js';
import { attrStr, jsonish } from '../span.js';

/**
 * Monocle (monocle2ai): `span.type = agentic.tool.invocation` spans are tool
 * executions (`entity.1.name` the tool, the `data.input` event's `input` the
 * arguments, the `data.output` event's `response` the result; no call ids);
 * `span.type` `inference` / `inference.*` spans are model requests.
 */
export function mapMonocle(span: OtelSpan, facts: SpanFacts): void {
  const type = attrStr(span.attrs, 'span.type');
  if (type === null) return;
  if (type === 'agentic.tool.invocation') {
    const tool = toolFacts(facts);
    tool.name ??= attrStr(span.attrs, 'entity.1.name');
    for (const event of span.events) {
      if (event.name === 'data.input' && tool.args === undefined && event.attrs.has('input')) tool.args = jsonish(event.attrs.get('input'));
      if (event.name === 'data.output' && tool.result === undefined && event.attrs.has('response')) {
        tool.result = event.attrs.get('response');
        tool.resultIsError ||= payloadIsError(jsonish(tool.result));
      }
    }
    return;
  }
  if (type === 'inference' || type.startsWith('inference.')) facts.model = true;
}
