import { isObject } from '../fields.js';
import { forEachJsonLine } from '../json-lines.js';
import { resultFact, toRecord, type Place } from '../tool-facts.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { toolEventOf } from './events.js';

/** Calls waiting for their end line, per session and tool, in start order (ids made up for them). */
type Waiting = Map<string, string[]>;

/**
 * Telemetry that logs a tool's start and end as two lines, keyed by session
 * and tool name, often with no call id (`tool.start` / `tool.end`, Claude Code
 * hook inputs logged as JSONL). One run per session. A line with a call id is
 * paired by it; without one, an end answers the oldest open start of the same
 * tool in the same session, and the run gets one `ingest-note` saying so. Other
 * lines are counted as skipped. State is held per open call only.
 */
export const toolEventsFormat: TraceFormat = {
  id: 'tool-events',
  description: 'Tool start/end event lines keyed by session and tool (tool.start / tool.end, PreToolUse / PostToolUse hook logs)',
  detect(sample: DetectSample): number {
    return sample.jsonLines.some((value) => toolEventOf(value) !== null) ? Evidence.structure : Evidence.none;
  },
  async parse(input, sink) {
    const waiting: Waiting = new Map();
    const counters = new Map<string, number>();
    const noted = new Set<string>();
    await forEachJsonLine(input, sink, (value, line) => {
      const event = toolEventOf(value);
      if (event === null) {
        sink.skip({ line, reason: isObject(value) ? 'line is not a tool start or end event' : 'line is not a JSON object', value });
        return;
      }
      const place: Place = { loc: { file: input.file, line }, runId: event.session, ts: event.ts };
      const key = `${event.session ?? ''}\u0000${event.tool}`;
      if (event.callId !== null) {
        sink.record(toRecord(event.phase === 'start' ? { kind: 'call', callId: event.callId, tool: event.tool, args: event.args } : resultFact(event.callId, event.tool, event.result, event.isError), place));
        return;
      }
      const run = event.session ?? '';
      if (!noted.has(run)) {
        noted.add(run);
        sink.diagnostic({ ruleId: 'ingest-note', line, runId: event.session, message: 'tool start and end lines carry no call id; each end is paired by order with the oldest open start of the same tool in the session' });
      }
      const open = waiting.get(key);
      if (event.phase === 'start') {
        const n = (counters.get(key) ?? 0) + 1;
        counters.set(key, n);
        const callId = `${event.tool}#${n}`;
        if (open) open.push(callId);
        else waiting.set(key, [callId]);
        sink.record(toRecord({ kind: 'call', callId, tool: event.tool, args: event.args }, place));
        return;
      }
      const callId = open?.shift() ?? null;
      if (open && open.length === 0) waiting.delete(key);
      sink.record(toRecord(resultFact(callId, event.tool, event.result, event.isError), place));
    });
  },
};
