import { idOf, isObject, own } from '../facts/fields.js';
import type { JsonPath } from '../read/json-locate.js';
import { itemFact } from '../facts/message-facts.js';
import { FactCollector, type Place } from '../facts/tool-facts.js';
import type { ParseInput, RecordSink } from '../types.js';
import { streamDocument, type DocumentElement } from '../read/whole-document.js';
import { collectConversation, conversationsOf, conversationSteps, isConversationObject, isMessage, runIdOf } from './conversations.js';
import { isRunState } from './run-state.js';

/**
 * Streams the OpenAI documents that grow big (memory: one item, capped by
 * limits.max-element-bytes, plus the records of the runs in flight):
 * - a list (`[`): a trajectory list (one run per item) or a bare message list
 *   (one run). A first pass reads only each item's kind and run id (repeated ids
 *   get `#i`, so every id must be known before the first run is named); the
 *   second collects the records, one item at a time;
 * - an Agents SDK run state (`$schemaVersion` in the head): its `original_input`
 *   and `generated_items` one item at a time.
 * Returns false for the other documents (one conversation object, a cassette),
 * which are read whole.
 */
export async function streamOpenAiDocument(input: ParseInput, sink: RecordSink): Promise<boolean> {
  const head = input.head?.subarray(0, 64 * 1024).toString('utf8').trimStart() ?? '';
  if (head.startsWith('[')) {
    await streamList(input, sink);
    return true;
  }
  if (head.startsWith('{') && /"\$schemaVersion"\s*:/.test(head)) return streamRunState(input, sink);
  return false;
}

const NOT_CONVERSATIONS = 'no message list, trajectory list or run state in this document';

/**
 * A list document of conversations (one run per item) or of messages (one run), as
 * streamOpenAiDocument reads it; Anthropic Messages lists are read the same way.
 * `notConversations` is the finding for a list that is neither.
 */
export async function streamList(input: ParseInput, sink: RecordSink, notConversations = NOT_CONVERSATIONS): Promise<void> {
  let items = 0;
  let messages = 0;
  let conversations = 0;
  const ids = new Map<string, number>();
  const lists = { lists: ['$[*]'] };
  const first = await streamDocument(input, sink, lists, ({ value }) => {
    items += 1;
    if (isMessage(value)) messages += 1;
    else if (isConversationObject(value)) {
      conversations += 1;
      const id = runIdOf(value as Record<string, unknown>);
      if (id !== null) ids.set(id, (ids.get(id) ?? 0) + 1);
    }
  });
  if (first === null) return;
  if (items === 0 || (messages !== items && conversations !== items)) {
    sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: notConversations });
    return;
  }
  const file = input.file;
  if (messages === items) {
    // One conversation, its messages one at a time (the line of item i is the line of path [i]).
    const collector = new FactCollector(false);
    let current: DocumentElement | null = null;
    const step = conversationSteps(collector, { runId: null, path: [], listPath: [], tools: undefined }, file, (path) => current!.lineOf(path.slice(1)));
    await streamDocument(input, sink, lists, (element) => {
      current = element;
      step(element.value, element.index);
      drain(collector, sink);
    });
    return;
  }
  await streamDocument(input, sink, lists, (element) => {
    const obj = element.value as Record<string, unknown>;
    const id = runIdOf(obj);
    const i = element.index;
    // Repeated ids (several trials of one task) still make separate runs.
    const runId = id === null ? `#${i}` : ids.get(id)! > 1 ? `${id}#${i}` : id;
    const collector = new FactCollector(false);
    for (const conv of conversationsOf(obj) ?? []) collectConversation(collector, { ...conv, runId }, file, (path: JsonPath) => element.lineOf(path));
    drain(collector, sink);
    sink.endRun?.(runId);
  });
}

function drain(collector: FactCollector, sink: RecordSink): void {
  for (const record of collector.records) sink.record(record);
  collector.records.length = 0;
}

/**
 * A run state is one run, audited whole by the engine. Its id is `conversation_id`,
 * else `trace.trace_id`: when the document before the first item has the first, the
 * records go on as they are read; otherwise they wait for the end of the document
 * (where `trace` is written), then go on with the id. Items are read in file order
 * (the SDK writes `original_input` before `generated_items`); `model_responses` are
 * streamed past (they repeat the generated items).
 */
async function streamRunState(input: ParseInput, sink: RecordSink): Promise<boolean> {
  const collector = new FactCollector(false);
  /** The run id, once known from the document before the first item; undefined until then. */
  let known: { readonly runId: string | null } | null | undefined;
  const read = await streamDocument(input, sink, { lists: ['$.original_input[*]', '$.generated_items[*]', '$.model_responses[*]'] }, (element) => {
    if (known === undefined) {
      const head = element.head();
      const id = isObject(head) ? idOf(head, 'conversation_id') : null;
      known = isRunStateHead(head) && id !== null ? { runId: id } : null;
    }
    const entry = element.value;
    if (element.list === '$.model_responses[*]' || !isObject(entry)) return;
    const raw = element.list === '$.generated_items[*]' ? own(entry, 'raw_item') : undefined;
    const place: Place = { loc: { file: input.file, line: element.line }, runId: known?.runId ?? null, ts: null };
    for (const fact of itemFact(isObject(raw) ? raw : entry)) collector.fact(fact, place);
    if (known) drain(collector, sink);
  });
  if (read === null) return true;
  const doc = read.rest;
  // Not a run state after all: read whole (unless records already went on, which only a run state's head lets happen).
  if (!isRunState(doc)) return known !== null;
  if (!known) {
    const trace = own(doc, 'trace');
    const runId = idOf(doc, 'conversation_id') ?? (isObject(trace) ? idOf(trace, 'trace_id') : null);
    for (const record of collector.records) sink.record({ ...record, runId });
    collector.records.length = 0;
  }
  return true;
}

/** The document before the first item is a run state's (its schema version is there). */
function isRunStateHead(head: unknown): boolean {
  return isObject(head) && own(head, '$schemaVersion') !== undefined;
}
