import { isObject } from '../facts/fields.js';
import { forEachJsonLine } from '../read/json-lines.js';
import { SessionStates } from '../read/session-states.js';
import { resultFact, toRecord, type Place } from '../facts/tool-facts.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { toolEventOf } from './events.js';

/** One session's calls waiting for their end line, per tool, in start order (ids made up for them), and the starts per tool. */
interface SessionState {
  readonly waiting: Map<string, string[]>;
  readonly counters: Map<string, number>;
  noted: boolean;
}

/**
 * Telemetry that logs a tool's start and end as two lines, keyed by session
 * and tool name, often with no call id (`tool.start` / `tool.end`, Claude Code
 * hook inputs logged as JSONL). One run per session. A line with a call id is
 * paired by it; without one, an end answers the oldest open start of the same
 * tool in the same session, and the run gets one `ingest-note` saying so. Other
 * lines are counted as skipped. State is held per open session (its open calls),
 * released when the session has been idle for limits.run-idle-records lines.
 */
export const toolEventsFormat: TraceFormat = {
  id: 'tool-events',
  description: 'Tool start/end event lines keyed by session and tool (tool.start / tool.end, PreToolUse / PostToolUse hook logs)',
  detect(sample: DetectSample): number {
    return sample.jsonLines.some((value) => toolEventOf(value) !== null) ? Evidence.structure : Evidence.none;
  },
  async parse(input, sink) {
    const sessions = new SessionStates<SessionState>(input.limits.runIdleRecords, () => ({ waiting: new Map(), counters: new Map(), noted: false }), sink);
    await forEachJsonLine(input, sink, (value, line) => {
      sessions.tick();
      const event = toolEventOf(value);
      if (event === null) {
        sink.skip({ line, reason: isObject(value) ? 'line is not a tool start or end event' : 'line is not a JSON object', value });
        return;
      }
      const place: Place = { loc: { file: input.file, line }, runId: event.session, ts: event.ts };
      const session = sessions.get(event.session);
      if (event.callId !== null) {
        sink.record(toRecord(event.phase === 'start' ? { kind: 'call', callId: event.callId, tool: event.tool, args: event.args } : resultFact(event.callId, event.tool, event.result, event.isError), place));
        return;
      }
      if (!session.noted) {
        session.noted = true;
        sink.diagnostic({ ruleId: 'ingest-note', line, runId: event.session, message: 'tool start and end lines carry no call id; each end is paired by order with the oldest open start of the same tool in the session' });
      }
      const { waiting, counters } = session;
      const key = event.tool;
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
