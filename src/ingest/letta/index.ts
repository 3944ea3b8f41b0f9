import type { CatalogTool } from '../../model/records.js';
import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import { indexLines, type JsonPath, type LineOf } from '../read/json-locate.js';
import { messageFacts } from '../facts/message-facts.js';
import { argsOf, FactCollector, type Place, type ToolFact } from '../facts/tool-facts.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';
import { largeDocumentHead, parseDocument } from '../read/whole-document.js';

/** An agent as Letta exports it: its type, its model configuration and its messages. */
function isAgent(value: unknown): value is JsonObject {
  return isObject(value) && typeof own(value, 'agent_type') === 'string' && isObject(own(value, 'llm_config')) && Array.isArray(own(value, 'messages'));
}

/** Some agent files are one JSON string holding the agent file (encoded twice): that layer is decoded. */
function decoded(doc: unknown): unknown {
  if (typeof doc !== 'string' || !doc.trimStart().startsWith('{')) return doc;
  try {
    return JSON.parse(doc) as unknown;
  } catch {
    return doc;
  }
}

/** The agents of a document: the file itself (agent files before 0.8), or each of `agents[]`. */
function agentsOf(doc: unknown): Array<{ agent: JsonObject; path: JsonPath }> | null {
  if (isAgent(doc)) return [{ agent: doc, path: [] }];
  if (!isObject(doc)) return null;
  const agents = own(doc, 'agents');
  if (!Array.isArray(agents) || agents.length === 0 || !agents.every(isAgent)) return null;
  return agents.map((agent, i) => ({ agent: agent as JsonObject, path: ['agents', i] }));
}

export function isLettaAgentFile(sample: DetectSample): boolean {
  const head = largeDocumentHead(sample);
  if (head !== null) return head.startsWith('{') && /"agent_type"\s*:\s*"/.test(head) && /"llm_config"\s*:\s*\{/.test(head) && /"(messages|in_context_message_indices|tool_rules)"\s*:/.test(head);
  return agentsOf(decoded(sample.document)) !== null;
}

/** A Letta tool: `json_schema` is the function declaration (`{name, description, parameters}`). */
function lettaTool(tool: unknown): CatalogTool | null {
  if (!isObject(tool)) return null;
  const schema = own(tool, 'json_schema');
  const name = (isObject(schema) ? str(schema, 'name') : null) ?? str(tool, 'name');
  if (name === null) return null;
  const parameters = isObject(schema) ? own(schema, 'parameters') : undefined;
  return parameters === undefined ? { name, schemaSha256: null } : { name, schema: argsOf(parameters), schemaSha256: null };
}

/** The agent's tools: its own `tools[]`, else the file's `tools[]` its `tool_ids` name (agent files from 0.8 on). */
function agentTools(doc: JsonObject, agent: JsonObject): CatalogTool[] {
  const listed = own(agent, 'tools');
  let defs: unknown[] = Array.isArray(listed) ? listed : [];
  const ids = own(agent, 'tool_ids');
  const shared = own(doc, 'tools');
  if (defs.length === 0 && Array.isArray(ids) && Array.isArray(shared) && doc !== agent) {
    const wanted = new Set(ids.filter((id): id is string => typeof id === 'string'));
    defs = shared.filter((t) => isObject(t) && wanted.has(str(t, 'id') ?? ''));
  }
  return defs.map(lettaTool).filter((t): t is CatalogTool => t !== null);
}

/**
 * A tool message's outcome: Letta records it in `tool_returns[].status`
 * (`success` / `error`); older files only in the returned JSON's `status` (`OK` / `Failed`).
 */
function failed(message: JsonObject): boolean {
  const returns = own(message, 'tool_returns');
  if (Array.isArray(returns) && returns.some((r) => isObject(r) && str(r, 'status') === 'error')) return true;
  const content = own(message, 'content');
  const text = Array.isArray(content) ? content.map((b) => (isObject(b) ? str(b, 'text') ?? '' : '')).join('') : typeof content === 'string' ? content : '';
  const returned = argsOf(text);
  return isObject(returned) && str(returned, 'status') === 'Failed';
}

function readAgent(collector: FactCollector, doc: JsonObject, agent: JsonObject, path: JsonPath, file: string, lineOf: LineOf): void {
  const runId = idOf(agent, 'id') ?? str(agent, 'name');
  const place = (at: JsonPath, ts: number | null): Place => ({ loc: { file, line: lineOf(at) }, runId, ts });
  const tools = agentTools(doc, agent);
  if (tools.length > 0) collector.catalog(tools, place([...path, 'tools'], null));
  const messages = own(agent, 'messages') as unknown[];
  messages.forEach((message, i) => {
    if (!isObject(message)) return;
    const role = str(message, 'role');
    const { facts } = messageFacts(message);
    if (role !== 'assistant' && facts.length === 0) return;
    const at = place([...path, 'messages', i], toMillis(own(message, 'created_at')));
    if (role === 'assistant') collector.llm(at);
    const isError = role === 'tool' && failed(message);
    for (const fact of facts) collector.fact(isError && fact.kind === 'result' ? ({ ...fact, isError: true } satisfies ToolFact) : fact, at);
  });
}

/**
 * Letta agent files (`.af`): one agent (`{agent_type, llm_config, tools, messages, …}`)
 * or, from Letta 0.8 on, `{agents: [...], tools: [...], blocks, groups, …}`. Each agent
 * is one run (its `id`, else its `name`); its tools are the catalog (`json_schema` is the
 * declaration: `parameters` the arguments' schema); an assistant message is one llm
 * record, its `tool_calls[]` the calls, a `role: "tool"` message with `tool_call_id`
 * the result (an error when `tool_returns[].status` is `error`, or the returned JSON's
 * `status` is `Failed`). Detected by an agent's `agent_type` with `llm_config` and `messages`.
 * A file that is one JSON string holding the agent file (some are encoded twice) is decoded first.
 */
export const lettaFormat: TraceFormat = {
  id: 'letta',
  description: 'Letta agent files (.af: an agent or agents[] with messages and tools)',
  detect: (sample) => (isLettaAgentFile(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink: RecordSink) {
    const parsed = await parseDocument(input, sink);
    if (!parsed) return;
    const doc = decoded(parsed.value);
    const agents = agentsOf(doc);
    if (agents === null || !isObject(doc)) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'not a Letta agent file: no agent with agent_type, llm_config and messages' });
      return;
    }
    const collector = new FactCollector(false);
    // A twice-encoded file is one line: every record is on it.
    const lineOf = doc === parsed.value ? indexLines(parsed.text, 5) : () => 1;
    for (const { agent, path } of agents) readAgent(collector, doc, agent, path, input.file, lineOf);
    for (const record of collector.records) sink.record(record);
  },
};
