import { idItems, idOf, isObject, own, str, type JsonObject } from '../facts/fields.js';
import type { LineOf } from '../read/json-locate.js';
import { quotedName } from '../skip-reason.js';
import { argsOf, llmRecord, toRecord, type Place } from '../facts/tool-facts.js';
import type { RecordSink } from '../types.js';

/** SWE-agent's history item kinds (`message_type`), which no other format writes. */
const MESSAGE_TYPES = new Set(['system_prompt', 'observation', 'action', 'thought', 'demonstration']);

/**
 * A SWE-agent trajectory: `{trajectory: [{action, observation, …}], history: [messages], info, …}`,
 * or a history alone (`{history: [...]}`, as its function-calling demonstrations keep it) whose
 * messages carry SWE-agent's `message_type`.
 */
export function isSweAgentTrajectory(value: unknown): value is JsonObject {
  if (!isObject(value)) return false;
  const history = own(value, 'history');
  if (!Array.isArray(history)) return false;
  const steps = own(value, 'trajectory');
  if (steps === undefined) return history.slice(0, 4).some((m) => isObject(m) && typeof own(m, 'role') === 'string' && MESSAGE_TYPES.has(str(m, 'message_type') ?? ''));
  if (!Array.isArray(steps)) return false;
  const first: unknown = steps[0];
  return steps.length === 0 ? isObject(own(value, 'info')) : isObject(first) && typeof own(first, 'action') === 'string' && Object.hasOwn(first, 'observation');
}

interface Where {
  readonly file: string;
  readonly lineOf: LineOf;
  readonly sink: RecordSink;
}

/**
 * Reads one SWE-agent trajectory. Function-calling agents keep their calls in
 * `history`: assistant messages' `tool_calls` (ids, function names, JSON
 * arguments) answered by tool messages that name them in `tool_call_ids`; the
 * `trajectory` steps repeat them and are read past. Text-action agents keep no
 * tool calls: each `trajectory` step's `action` (one command line) is a call
 * of the command's first word, its `observation` the result, with one
 * `ingest-note` saying the calls were read from text.
 */
export function readSweAgentTrajectory(doc: JsonObject, where: Where): void {
  const history = own(doc, 'history') as unknown[];
  const listed = own(doc, 'trajectory');
  const steps: unknown[] = Array.isArray(listed) ? listed : [];
  const functionCalling = history.some((message) => isObject(message) && Array.isArray(own(message, 'tool_calls')) && (own(message, 'tool_calls') as unknown[]).length > 0);
  if (functionCalling) {
    readHistory(history, where);
    steps.forEach((_step, i) => where.sink.skip({ line: where.lineOf(['trajectory', i]), reason: 'trajectory step (the history holds the calls)' }));
  } else if (steps.length === 0) {
    // A history alone of a text-action agent: each assistant message's `action`, the message after it its observation.
    const read = historySteps(history);
    readSteps(read.steps, where);
    history.forEach((message, i) => {
      if (!read.used.has(i)) where.sink.skip({ line: where.lineOf(['history', i]), reason: `history message of role ${quotedName(isObject(message) ? str(message, 'role') : null)}` });
    });
  } else {
    readSteps(steps.map((step, i) => ({ path: ['trajectory', i], step })), where);
    history.forEach((_message, i) => where.sink.skip({ line: where.lineOf(['history', i]), reason: 'history message (the trajectory steps hold the actions)' }));
  }
}

function readHistory(history: readonly unknown[], { file, lineOf, sink }: Where): void {
  const toolOf = new Map<string, string>();
  history.forEach((message, i) => {
    const place: Place = { loc: { file, line: lineOf(['history', i]) }, runId: null, ts: null };
    if (!isObject(message)) return sink.skip({ line: place.loc.line, reason: 'history entry that is not an object', value: message });
    const role = str(message, 'role');
    if (role === 'assistant') {
      sink.record(llmRecord(place));
      const calls = own(message, 'tool_calls');
      (Array.isArray(calls) ? calls : []).forEach((call: unknown, j) => {
        const fn = isObject(call) ? own(call, 'function') : undefined;
        const tool = isObject(fn) ? str(fn, 'name') : null;
        const line = lineOf(['history', i, 'tool_calls', j]);
        if (!isObject(call) || !isObject(fn) || tool === null) {
          sink.diagnostic({ ruleId: 'malformed-record', line, message: `history[${i}].tool_calls[${j}] has no function name` });
          return;
        }
        const callId = idOf(call, 'id');
        if (callId !== null) toolOf.set(callId, tool);
        sink.record(toRecord({ kind: 'call', callId, tool, args: argsOf(own(fn, 'arguments')) }, { ...place, loc: { file, line } }));
      });
    } else if (role === 'tool') {
      const ids = idItems(own(message, 'tool_call_ids')) ?? [];
      const single = idOf(message, 'tool_call_id');
      if (single !== null && !ids.includes(single)) ids.push(single);
      if (ids.length === 0) return sink.skip({ line: place.loc.line, reason: 'tool message without tool_call_ids', value: message, toolLike: true });
      for (const callId of ids) {
        sink.record(toRecord({ kind: 'result', callId, tool: toolOf.get(callId) ?? null, content: own(message, 'content'), isError: false, errorClass: null, errorCode: null }, place));
      }
    } else {
      sink.skip({ line: place.loc.line, reason: `history message of role ${quotedName(role)}` });
    }
  });
}

/** One action and its observation: a trajectory step, or an assistant history message with the message after it. */
interface Step {
  readonly path: Array<string | number>;
  readonly step: unknown;
}

function historySteps(history: readonly unknown[]): { steps: Step[]; used: Set<number> } {
  const steps: Step[] = [];
  const used = new Set<number>();
  history.forEach((message, i) => {
    if (!isObject(message) || str(message, 'role') !== 'assistant') return;
    const next: unknown = history[i + 1];
    const answered = isObject(next) && str(next, 'role') !== 'assistant' && str(next, 'role') !== 'system';
    used.add(i);
    if (answered) used.add(i + 1);
    steps.push({ path: ['history', i], step: { action: own(message, 'action'), observation: answered ? own(next, 'content') : undefined } });
  });
  return { steps, used };
}

function readSteps(steps: readonly Step[], { file, lineOf, sink }: Where): void {
  let calls = 0;
  let firstLine = 0;
  steps.forEach(({ path, step }, index) => {
    const line = lineOf(path);
    const action = isObject(step) ? str(step, 'action') : null;
    const command = action?.trim() ?? '';
    if (!isObject(step) || command === '') return sink.skip({ line, reason: `${path[0]} step without an action`, value: step });
    const place: Place = { loc: { file, line }, runId: null, ts: null };
    const callId = `${path[0]}[${path[1]}]`;
    const tool = /^\S+/.exec(command)![0];
    sink.record(llmRecord(place));
    sink.record(toRecord({ kind: 'call', callId, tool, args: { command } }, place));
    calls += 1;
    if (firstLine === 0) firstLine = line;
    const observation = own(step, 'observation');
    if (observation !== undefined && observation !== null) {
      sink.record(toRecord({ kind: 'result', callId, tool, content: observation, isError: false, errorClass: null, errorCode: null }, place));
    } else if (tool === 'submit' && index === steps.length - 1) {
      // `submit` ends the run: when nothing follows it, it is answered by itself (as ATIF's finish), never an orphan.
      sink.record(toRecord({ kind: 'result', callId, tool, content: command, isError: false, errorClass: null, errorCode: null }, place));
    }
  });
  if (calls > 0) {
    sink.diagnostic({
      ruleId: 'ingest-note',
      line: firstLine,
      message: `${calls} call(s) read from text: each ${steps[0]!.path[0] === 'history' ? "assistant message's action" : "trajectory step's action"} is one command (the tool is its first word) and its observation the result; the file has no tool calls or call ids`,
    });
  }
}
