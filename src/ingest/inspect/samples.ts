import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import type { JsonPath, LineOf } from '../read/json-locate.js';
import { messageFacts } from '../facts/message-facts.js';
import { catalogTools, FactCollector, resultFact, type Place } from '../facts/tool-facts.js';

/** Timestamps of a sample's tool events, by tool call id. */
function toolTimes(events: unknown[]): Map<string, { start: number | null; end: number | null }> {
  const times = new Map<string, { start: number | null; end: number | null }>();
  for (const event of events) {
    if (!isObject(event) || str(event, 'event') !== 'tool') continue;
    const id = idOf(event, 'id');
    if (id === null) continue;
    const start = toMillis(own(event, 'timestamp'));
    times.set(id, { start, end: toMillis(own(event, 'completed')) ?? start });
  }
  return times;
}

/** The run id of a sample: its id and epoch. */
export function sampleRunId(sample: JsonObject): string | null {
  const id = idOf(sample, 'id');
  if (id === null) return null;
  const epoch = idOf(sample, 'epoch');
  return epoch === null ? id : `${id}#${epoch}`;
}

/**
 * One Inspect AI sample as one run. The catalog is the tool list of its model
 * events; calls and results come from its messages (assistant `tool_calls`,
 * `role:"tool"` messages with `error{type,message}`), timed by the matching
 * tool events; each assistant message is an llm span. A sample with no
 * messages falls back to its tool events.
 */
export function collectSample(collector: FactCollector, sample: JsonObject, path: JsonPath, file: string, lineOf: LineOf, fallbackRunId: string): void {
  const runId = sampleRunId(sample) ?? fallbackRunId;
  const place = (at: JsonPath, ts: number | null): Place => ({ loc: { file, line: lineOf(at) }, runId, ts });
  const rawEvents = own(sample, 'events');
  const events = Array.isArray(rawEvents) ? rawEvents : [];
  // The tools each model request offered, in request order.
  const offered: Array<() => void> = [];
  events.forEach((event, k) => {
    if (!isObject(event) || str(event, 'event') !== 'model') return;
    const tools = catalogTools(own(event, 'tools'));
    offered.push(() => {
      if (tools) collector.catalog(tools, place([...path, 'events', k], toMillis(own(event, 'timestamp'))));
    });
  });
  const times = toolTimes(events);
  const messages = own(sample, 'messages');
  if (Array.isArray(messages) && messages.length > 0) {
    // Each model request writes one assistant message: its catalog goes right before
    // that message's llm record, so a call is checked against the tools offered with it.
    let request = 0;
    messages.forEach((message, j) => {
      const at = [...path, 'messages', j];
      if (isObject(message) && str(message, 'role') === 'assistant') {
        offered[request++]?.();
        collector.llm(place(at, null));
      }
      for (const fact of messageFacts(message).facts) {
        const time = fact.callId === null ? undefined : times.get(fact.callId);
        collector.fact(fact, place(at, time ? (fact.kind === 'call' ? time.start : time.end) : null));
      }
    });
    for (; request < offered.length; request += 1) offered[request]!();
    return;
  }
  let request = 0;
  events.forEach((event, k) => {
    if (!isObject(event)) return;
    const at = [...path, 'events', k];
    const kind = str(event, 'event');
    if (kind === 'model') offered[request++]!();
    if (kind === 'model') collector.llm(place(at, toMillis(own(event, 'timestamp'))), toMillis(own(event, 'completed')));
    if (kind !== 'tool') return;
    const callId = idOf(event, 'id');
    const tool = str(event, 'function') ?? 'unknown';
    collector.fact({ kind: 'call', callId, tool, args: own(event, 'arguments') }, place(at, toMillis(own(event, 'timestamp'))));
    const error = own(event, 'error');
    const errorType = isObject(error) ? str(error, 'type') : null;
    const failed = error !== undefined && error !== null;
    const content = failed && isObject(error) ? own(error, 'message') : own(event, 'result');
    collector.fact(resultFact(callId, tool, content, failed, errorType, errorType), place(at, toMillis(own(event, 'completed'))));
  });
}
