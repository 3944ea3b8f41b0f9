import { idOf, isObject, own, type JsonObject } from '../facts/fields.js';
import type { LineOf } from '../read/json-locate.js';
import { itemFact } from '../facts/message-facts.js';
import { FactCollector, type Place } from '../facts/tool-facts.js';

/** An OpenAI Agents SDK run state (`RunState.to_json()`): `$schemaVersion` and `generated_items`. */
export function isRunState(doc: unknown): doc is JsonObject {
  return isObject(doc) && own(doc, '$schemaVersion') !== undefined && Array.isArray(own(doc, 'generated_items'));
}

/**
 * The run's items: the original input when it is an item list, then each
 * generated item's `raw_item` (a Responses API item: `function_call`,
 * `function_call_output`, `program`, ...). `model_responses` repeat the
 * generated items without saying when each was written, so they give no llm spans.
 */
export function collectRunState(collector: FactCollector, doc: JsonObject, file: string, lineOf: LineOf): void {
  const trace = own(doc, 'trace');
  const runId = idOf(doc, 'conversation_id') ?? (isObject(trace) ? idOf(trace, 'trace_id') : null);
  const place = (path: Array<string | number>): Place => ({ loc: { file, line: lineOf(path) }, runId, ts: null });
  const original = own(doc, 'original_input');
  if (Array.isArray(original)) {
    original.forEach((item, i) => {
      if (isObject(item)) for (const fact of itemFact(item)) collector.fact(fact, place(['original_input', i]));
    });
  }
  const generated = own(doc, 'generated_items') as unknown[];
  generated.forEach((entry, i) => {
    if (!isObject(entry)) return;
    const raw = own(entry, 'raw_item');
    const item = isObject(raw) ? raw : entry;
    for (const fact of itemFact(item)) collector.fact(fact, place(['generated_items', i]));
  });
}
