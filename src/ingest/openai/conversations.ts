import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import type { JsonPath, LineOf } from '../read/json-locate.js';
import { messageFacts } from '../facts/message-facts.js';
import { catalogTools, FactCollector, type Place } from '../facts/tool-facts.js';

/** One conversation found in a document: where its messages are and what run it is. */
export interface Conversation {
  readonly runId: string | null;
  readonly path: JsonPath;
  readonly messages: readonly unknown[];
  /** Path of the message list (messages are at [...listPath, i]). */
  readonly listPath: JsonPath;
  readonly tools: unknown;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** A chat message (any dialect) or a Responses API item. */
export function isMessage(value: unknown): boolean {
  if (!isObject(value)) return false;
  const role = str(value, 'role');
  if (role !== null) return ROLES.has(role);
  const type = str(value, 'type');
  if (type === null) return false;
  return type === 'message' || type === 'reasoning' || idOf(value, 'call_id') !== null || /(_call|_output)$/.test(type);
}

export function isMessageList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(isMessage);
}

/** The message list of a conversation object: `messages`, `traj`/`trajectory`/`history` (agent trajectory dumps such as SWE-agent's) or Responses `input` + `output`. */
function listOf(obj: JsonObject): { key: string; list: unknown[] }[] {
  for (const key of ['messages', 'traj', 'trajectory', 'history']) {
    const value = own(obj, key);
    if (isMessageList(value)) return [{ key, list: value }];
  }
  const out: { key: string; list: unknown[] }[] = [];
  for (const key of ['input', 'output']) {
    const value = own(obj, key);
    if (isMessageList(value)) out.push({ key, list: value });
  }
  return out;
}

export function isConversationObject(value: unknown): boolean {
  return isObject(value) && listOf(value).length > 0;
}

/**
 * The conversations of a chat document: a bare message (or item) list, one
 * conversation object (a Chat Completions or Responses request with `tools`),
 * or a list of such objects (trajectory dumps: one run each).
 */
export function conversationsOf(doc: unknown): Conversation[] | null {
  if (isMessageList(doc)) return [{ runId: null, path: [], listPath: [], messages: doc, tools: undefined }];
  if (isObject(doc)) {
    const lists = listOf(doc);
    if (lists.length === 0) return null;
    return lists.map(({ key, list }) => ({ runId: runIdOf(doc), path: [], listPath: [key], messages: list, tools: own(doc, 'tools') }));
  }
  if (!Array.isArray(doc) || doc.length === 0 || !doc.every(isConversationObject)) return null;
  const out: Conversation[] = [];
  const ids = doc.map((item) => runIdOf(item as JsonObject));
  const count = new Map<string, number>();
  for (const id of ids) if (id !== null) count.set(id, (count.get(id) ?? 0) + 1);
  doc.forEach((item, i) => {
    const obj = item as JsonObject;
    // Repeated ids (several trials of one task) still make separate runs.
    const id = ids[i] ?? null;
    const runId = id === null ? `#${i}` : count.get(id)! > 1 ? `${id}#${i}` : id;
    for (const { key, list } of listOf(obj)) out.push({ runId, path: [i], listPath: [i, key], messages: list, tools: own(obj, 'tools') });
  });
  return out;
}

export function runIdOf(obj: JsonObject): string | null {
  for (const key of ['id', 'instance_id', 'task_id', 'sample_id', 'trajectory_id', 'run_id', 'conversation_id']) {
    const id = idOf(obj, key);
    if (id !== null) return id;
  }
  return null;
}

const MODEL_ITEMS = /(_call|^program)$/;

/** Did the model write this message or item (a generation step)? */
function fromModel(message: unknown): boolean {
  if (!isObject(message)) return false;
  const role = str(message, 'role');
  if (role !== null) return role === 'assistant';
  const type = str(message, 'type') ?? '';
  return MODEL_ITEMS.test(type);
}

/**
 * Collects a conversation's records in message order: its catalog (request
 * `tools`) first, an llm span where a run of model-written messages begins,
 * then each call and result at the line of its message.
 */
export function collectConversation(collector: FactCollector, conv: Conversation, file: string, lineOf: LineOf): void {
  const step = conversationSteps(collector, conv, file, lineOf);
  conv.messages.forEach((message, i) => step(message, i));
}

/**
 * The same, one message at a time (for a message list streamed from a document):
 * collects the catalog now and returns what collects message `i`.
 */
export function conversationSteps(collector: FactCollector, conv: Omit<Conversation, 'messages'>, file: string, lineOf: LineOf): (message: unknown, i: number) => void {
  const place = (path: JsonPath, ts: number | null): Place => ({ loc: { file, line: lineOf(path) }, runId: conv.runId, ts });
  const tools = catalogTools(conv.tools);
  if (tools) collector.catalog(tools, place([...conv.path, 'tools'], null));
  let previousFromModel = false;
  return (message, i) => {
    const model = fromModel(message);
    const llm = model && !previousFromModel;
    previousFromModel = model;
    const { facts, catalog } = messageFacts(message);
    if (!llm && facts.length === 0 && catalog.length === 0) return;
    // One place for the message's records: its line is looked up once, and only for a message that has records.
    const ts = isObject(message) ? toMillis(own(message, 'timestamp') ?? own(message, 'created_at')) : null;
    const at = place([...conv.listPath, i], ts);
    if (llm) collector.llm(at);
    if (catalog.length > 0) collector.catalog(catalog, at);
    for (const fact of facts) collector.fact(fact, at);
  };
}
