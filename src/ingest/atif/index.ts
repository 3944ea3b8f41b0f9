import { idOf, isObject, own, str, toMillis, type JsonObject } from '../fields.js';
import type { LineOf } from '../json-locate.js';
import { argsOf, catalogRecord, catalogTools, llmRecord, toRecord, type Place } from '../tool-facts.js';
import { quotedName } from '../skip-reason.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';
import { largeDocumentHead, streamDocument } from '../whole-document.js';

const VERSION = /^ATIF-v1(\.\d+)*$/;
/** Tool calls that end the trajectory: no observation answers them by design. */
const FINISH_TOOLS = new Set(['finish']);

function isTrajectory(value: unknown): value is JsonObject {
  return isObject(value) && VERSION.test(str(value, 'schema_version') ?? '') && Array.isArray(own(value, 'steps'));
}

export function isAtifTrajectory(sample: DetectSample): boolean {
  const head = largeDocumentHead(sample);
  if (head !== null) return head.startsWith('{') && /"schema_version"\s*:\s*"ATIF-v1/.test(head);
  return isTrajectory(sample.document);
}

/**
 * Agent Trajectory Interchange Format (Harbor, Terminal-Bench): one trajectory
 * per file, `{schema_version: "ATIF-v1.x", session_id, agent, steps}`. The
 * session id is the run; `agent.tool_definitions` the catalog; each agent step
 * one llm record, its `tool_calls[]` the calls (`tool_call_id`, `function_name`,
 * `arguments`) and `observation.results[]` the results by `source_call_id`
 * (`is_error` when a writer records it). A `finish` call is answered by itself:
 * it ends the trajectory and no observation follows it by design. Steps of
 * other sources without calls (the prompt) and results without a
 * `source_call_id` are counted as skipped.
 */
export const atifFormat: TraceFormat = {
  id: 'atif',
  description: 'ATIF agent trajectories (schema_version "ATIF-v1.x")',
  detect: (sample) => (isAtifTrajectory(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    // Steps are streamed; the session id and the catalog (agent.tool_definitions) are read before them.
    let context: StepContext | null = null;
    let trajectory = false;
    const toolOf = new Map<string, string>();
    const start = (head: unknown, lineOf: LineOf): StepContext => {
      trajectory = isObject(head) && VERSION.test(str(head, 'schema_version') ?? '');
      const runId = isObject(head) ? idOf(head, 'session_id') : null;
      const agent = isObject(head) ? own(head, 'agent') : undefined;
      const tools = trajectory && isObject(agent) ? catalogTools(own(agent, 'tool_definitions')) : null;
      if (tools !== null && tools.length > 0) sink.record(catalogRecord(tools, { loc: { file: input.file, line: lineOf(['agent', 'tool_definitions']) }, runId, ts: null }));
      return { file: input.file, runId, lineOf, sink, toolOf };
    };
    const read = await streamDocument(input, sink, { lists: ['$.steps[*]'], needs: ['schema_version', 'session_id', 'agent'] }, (element) => {
      context ??= start(element.head(), (path) => element.headLineOf(path));
      if (!trajectory) return;
      const step = { ...context, lineOf: element.lineOf };
      if (isObject(element.value)) readStep(element.value, element.index, step);
      else sink.diagnostic({ ruleId: 'malformed-record', line: element.line, runId: context.runId, message: `steps[${element.index}] is not an object` });
    });
    if (!read) return;
    if (!isTrajectory(read.rest)) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'not an ATIF trajectory (no schema_version "ATIF-v1.x" with a steps list)' });
      return;
    }
    context ??= start(read.rest, read.lineOf);
    sink.endRun?.(context.runId);
  },
};

interface StepContext {
  readonly file: string;
  readonly runId: string | null;
  /** Lines inside the step (paths from the step). */
  readonly lineOf: LineOf;
  readonly sink: RecordSink;
  /** The tool of each call id, to name the results. */
  readonly toolOf: Map<string, string>;
}

function readStep(step: JsonObject, index: number, { file, runId, lineOf, sink, toolOf }: StepContext): void {
  const ts = toMillis(own(step, 'timestamp'));
  const at = (sub: Array<string | number>): Place => ({ loc: { file, line: lineOf(sub) }, runId, ts, spanId: idOf(step, 'step_id') });
  const source = str(step, 'source');
  if (source === 'agent') sink.record(llmRecord(at([])));
  const calls = own(step, 'tool_calls');
  const hasCalls = Array.isArray(calls) && calls.length > 0;
  const finished: Array<{ callId: string | null; tool: string; place: Place; args: unknown }> = [];
  if (Array.isArray(calls)) {
    calls.forEach((call: unknown, j) => {
      const tool = isObject(call) ? str(call, 'function_name') : null;
      if (!isObject(call) || tool === null) {
        sink.diagnostic({ ruleId: 'malformed-record', line: lineOf(['tool_calls', j]), runId, message: `tool_calls[${j}] of step ${index} has no function_name` });
        return;
      }
      const place = at(['tool_calls', j]);
      const args = argsOf(own(call, 'arguments'));
      const callId = idOf(call, 'tool_call_id');
      if (callId !== null) toolOf.set(callId, tool);
      sink.record(toRecord({ kind: 'call', callId, tool, args }, place));
      if (FINISH_TOOLS.has(tool)) finished.push({ callId: idOf(call, 'tool_call_id'), tool, place, args });
    });
  }
  const observation = own(step, 'observation');
  const results = isObject(observation) ? own(observation, 'results') : undefined;
  const answered = new Set<string>();
  const hasResults = Array.isArray(results) && results.length > 0;
  // A user or system step (the prompt) holds no calls: read past, and counted.
  if (source !== 'agent' && !hasCalls && !hasResults) sink.skip({ line: lineOf([]), reason: `step of source ${quotedName(source)} without tool calls`, value: step });
  if (Array.isArray(results)) {
    results.forEach((result: unknown, j) => {
      const line = lineOf(['observation', 'results', j]);
      if (!isObject(result)) return sink.skip({ line, reason: 'observation result that is not an object', value: result });
      const callId = idOf(result, 'source_call_id');
      // A result without a source call is environment output, not a tool's answer.
      if (callId === null) return sink.skip({ line, reason: 'observation result without source_call_id', value: result });
      answered.add(callId);
      sink.record(toRecord({ kind: 'result', callId, tool: toolOf.get(callId) ?? null, content: own(result, 'content'), isError: own(result, 'is_error') === true, errorClass: null, errorCode: null }, at(['observation', 'results', j])));
    });
  }
  for (const call of finished) {
    if (call.callId !== null && answered.has(call.callId)) continue;
    sink.record(toRecord({ kind: 'result', callId: call.callId, tool: call.tool, content: call.args, isError: false, errorClass: null, errorCode: null }, call.place));
  }
}

