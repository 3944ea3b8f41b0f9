import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { isObject, num, own, str, type JsonObject } from '../fields.js';
import { messageFacts } from '../message-facts.js';
import { argsOf, catalogTools, FactCollector, type Place } from '../tool-facts.js';
import type { RecordSink } from '../types.js';

/** A VCR cassette (vcrpy, Polly-style YAML) starts with its `interactions:` list. */
export function looksLikeCassette(head: Buffer): boolean {
  const text = head.subarray(0, 4096).toString('utf8');
  return /^(---\s*\n)?interactions:\s*\n/.test(text) && /\n\s*-?\s*request:\s*\n/.test(text);
}

/** A body as recorded: a JSON string, `{string: "..."}`, or already a mapping. */
function bodyOf(holder: unknown): JsonObject | null {
  if (!isObject(holder)) return null;
  const body = own(holder, 'body') ?? own(holder, 'content');
  const raw = isObject(body) && typeof own(body, 'string') === 'string' ? own(body, 'string') : body;
  const value = argsOf(raw);
  return isObject(value) ? value : null;
}

/**
 * Recorded OpenAI API calls (VCR cassette YAML): each interaction is one model
 * request. Its request body carries the catalog (`tools`) and the conversation
 * so far, its response the model's new message (Chat `choices[].message`) or
 * items (Responses `output`). Every request repeats the earlier turns, so
 * calls and results are kept once per call id. The whole cassette is one run.
 */
export function parseCassette(text: string, file: string, sink: RecordSink): void {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const at = doc.errors[0]!.linePos?.[0]?.line ?? 1;
    sink.diagnostic({ ruleId: 'malformed-record', line: at, message: `cassette is not valid YAML: ${doc.errors[0]!.code}` });
    return;
  }
  const seq = doc.get('interactions', true);
  if (!isSeq(seq)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'cassette has no "interactions" list' });
    return;
  }
  const collector = new FactCollector(true);
  for (const node of seq.items) {
    if (!isMap(node)) continue;
    const line = node.range ? lineCounter.linePos(node.range[0]).line : 1;
    const responseNode = node.get('response', true);
    const responseLine = isMap(responseNode) && responseNode.range ? lineCounter.linePos(responseNode.range[0]).line : line;
    let interaction: unknown;
    try {
      interaction = node.toJS(doc) as unknown;
    } catch (error) {
      // e.g. an alias bomb: the yaml package refuses excessive alias expansion
      sink.diagnostic({ ruleId: 'malformed-record', line, message: `cassette interaction cannot be read (${error instanceof Error ? error.message.split('\n')[0] : 'unknown error'})` });
      continue;
    }
    if (!isObject(interaction)) continue;
    const request = bodyOf(own(interaction, 'request'));
    const response = bodyOf(own(interaction, 'response'));
    const created = response ? num(response, 'created') ?? num(response, 'created_at') : null;
    // The request was sent before `created`; only the response's records carry it.
    const at = (where: number, ts: number | null = null): Place => ({ loc: { file, line: where }, runId: null, ts });
    const ts = created === null ? null : created * 1000;
    if (request) {
      const tools = catalogTools(own(request, 'tools'));
      if (tools) collector.catalog(tools, at(line));
      for (const key of ['messages', 'input']) {
        const list = own(request, key);
        if (Array.isArray(list)) for (const message of list) addMessage(collector, message, at(line));
      }
    }
    if (!response) continue;
    collector.llm(at(responseLine, ts));
    const choices = own(response, 'choices');
    if (Array.isArray(choices)) {
      for (const choice of choices) if (isObject(choice)) addMessage(collector, own(choice, 'message'), at(responseLine, ts));
    }
    const output = own(response, 'output');
    if (Array.isArray(output)) for (const item of output) addMessage(collector, item, at(responseLine, ts));
    const content = own(response, 'content');
    if (Array.isArray(content) && str(response, 'role') === 'assistant') addMessage(collector, response, at(responseLine, ts));
  }
  for (const record of collector.records) sink.record(record);
}

function addMessage(collector: FactCollector, message: unknown, place: Place): void {
  const { facts, catalog } = messageFacts(message);
  if (catalog.length > 0) collector.catalog(catalog, place);
  for (const fact of facts) collector.fact(fact, place);
}
