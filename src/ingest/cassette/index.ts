import type { isMap as isMapType, LineCounter, YAMLMap } from 'yaml';
import { readYaml } from '../read/yaml-document.js';
import type { ReadLimits } from '../../io/limits.js';
import { isObject, num, own, str, type JsonObject } from '../facts/fields.js';
import { messageFacts } from '../facts/message-facts.js';
import { catalogTools, FactCollector, type Place } from '../facts/tool-facts.js';
import type { RecordSink } from '../types.js';
import { readBody, type BodyRead, type InflateBudget } from './body.js';
import { GeminiConversation, isGeminiRequest, isGeminiResponse } from './gemini.js';
import { AgentTraces } from './bedrock-agents.js';

/**
 * Recorded model API calls (VCR cassette YAML), OpenAI or Anthropic: each
 * interaction is one model request. Its request body carries the catalog
 * (`tools`) and the conversation so far, its response the model's new message
 * (Chat `choices[].message`, Responses `output` items, an Anthropic message's
 * `content` blocks). Every request repeats the earlier turns, so calls and
 * results are kept once per call id. The whole cassette is one run. Compressed
 * `!!binary` bodies are inflated, all of them together within max-document-bytes.
 */
export async function parseCassette(text: string, file: string, sink: RecordSink, limits: ReadLimits): Promise<void> {
  const { isMap, isSeq } = await import(/* webpackMode: "eager" */ 'yaml');
  const read = await readYaml(text, limits, { what: 'cassette', customTags: ['binary'], stream: false });
  if (!('documents' in read)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: read.line, message: read.message });
    return;
  }
  const first = read.documents[0];
  const seq = first?.doc.get('interactions', true);
  if (first === undefined || !isSeq(seq)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'cassette has no "interactions" list' });
    return;
  }
  // Aliases are read as copies of what they stand for: their expansion (src/ingest/read/yaml-document.ts)
  // counts against limits.max-document-bytes with the compressed bodies.
  const budget: InflateBudget = { left: limits.maxDocumentBytes - read.aliasBytes, limit: limits.maxDocumentBytes, parsed: new Map() };
  const interactions = isObject(first.value) ? own(first.value, 'interactions') : undefined;
  const lineCounter = read.lineCounter;
  if (!Array.isArray(interactions)) return;
  const collector = new FactCollector(true);
  const gemini = new GeminiConversation(collector);
  const bodyAt = (holder: unknown, line: number, what: string) => {
    const read: BodyRead = readBody(holder, budget);
    // An event stream cut short or failing its checks: what came before it is read, the rest is not (partial-read).
    const problem = read.kind === 'json' ? read.problem : read.kind === 'broken' ? read.reason : undefined;
    if (problem !== undefined) sink.diagnostic({ ruleId: 'malformed-record', line, message: `${what} ${problem}` });
    if ((read.kind === 'json' && read.problem !== undefined) || (read.kind === 'broken' && read.unread)) sink.skip({ line, reason: `${what} event stream not read to its end`, toolLike: true });
    if (read.kind === 'json') return read.value;
    if (read.kind === 'skipped') sink.skip({ line, reason: `${what} ${read.reason}`, value: read.value });
    return null;
  };
  const context: CassetteRead = { lineCounter, isMap, file, collector, gemini, agents: new AgentTraces(collector), bodyAt };
  seq.items.forEach((node, i) => {
    if (isMap(node)) readInteraction(node, interactions[i], context);
  });
  gemini.flush();
  for (const record of collector.records) sink.record(record);
}

/** What every interaction of one cassette is read with. */
interface CassetteRead {
  readonly lineCounter: LineCounter;
  readonly isMap: typeof isMapType;
  readonly file: string;
  readonly collector: FactCollector;
  readonly gemini: GeminiConversation;
  readonly agents: AgentTraces;
  /** A request's or response's body as JSON, or null (none, or skipped or broken: told to the sink). */
  readonly bodyAt: (holder: unknown, line: number, what: string) => JsonObject | null;
}

/** One interaction (its node for the lines, its value read): its request and its response. */
function readInteraction(node: YAMLMap, interaction: unknown, { lineCounter, isMap, file, collector, gemini, agents, bodyAt }: CassetteRead): void {
  const line = node.range ? lineCounter.linePos(node.range[0]).line : 1;
  const responseNode = node.get('response', true);
  const responseLine = isMap(responseNode) && responseNode.range ? lineCounter.linePos(responseNode.range[0]).line : line;
  if (!isObject(interaction)) return;
  const request = bodyAt(own(interaction, 'request'), line, 'request');
  const response = bodyAt(own(interaction, 'response'), responseLine, 'response');
  const created = response ? num(response, 'created') ?? num(response, 'created_at') : null;
  // The request was sent before `created`; only the response's records carry it.
  const at = (where: number, ts: number | null = null): Place => ({ loc: { file, line: where }, runId: null, ts });
  const ts = created === null ? null : created * 1000;
  if (request && isGeminiRequest(request)) gemini.request(request, at(line));
  else if (request) addRequest(collector, request, at(line));
  const traces = response ? own(response, 'agentTraces') : undefined;
  if (Array.isArray(traces)) agents.read(traces, at(responseLine));
  else if (response && isGeminiResponse(response)) gemini.response(response, at(responseLine, ts));
  else if (response) addResponse(collector, response, at(responseLine, ts));
}

/** A request's catalog and the conversation it sends (Chat `messages`, Responses `input`; Bedrock Converse: `toolConfig.tools`, `messages`). */
function addRequest(collector: FactCollector, request: JsonObject, place: Place): void {
  const toolConfig = own(request, 'toolConfig');
  const tools = catalogTools(own(request, 'tools') ?? (isObject(toolConfig) ? own(toolConfig, 'tools') : undefined));
  if (tools) collector.catalog(tools, place);
  for (const key of ['messages', 'input']) {
    const list = own(request, key);
    if (Array.isArray(list)) for (const message of list) addMessage(collector, message, place);
  }
}

/** A response: one model call, and its new message (Chat choices, Responses output, an Anthropic message, Bedrock Converse `output.message`). */
function addResponse(collector: FactCollector, response: JsonObject, place: Place): void {
  collector.llm(place);
  const choices = own(response, 'choices');
  if (Array.isArray(choices)) {
    for (const choice of choices) if (isObject(choice)) addMessage(collector, own(choice, 'message'), place);
  }
  const output = own(response, 'output');
  if (Array.isArray(output)) for (const item of output) addMessage(collector, item, place);
  if (isObject(output)) addMessage(collector, own(output, 'message'), place);
  const content = own(response, 'content');
  if (Array.isArray(content) && str(response, 'role') === 'assistant') addMessage(collector, response, place);
}

function addMessage(collector: FactCollector, message: unknown, place: Place): void {
  const { facts, catalog } = messageFacts(message);
  if (catalog.length > 0) collector.catalog(catalog, place);
  for (const fact of facts) collector.fact(fact, place);
}
