import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import type { LineOf } from '../read/json-locate.js';
import { argsOf, catalogRecord, catalogTools, llmRecord, toRecord, type Place } from '../facts/tool-facts.js';
import { quotedName } from '../skip-reason.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';
import { largeDocumentHead, streamDocument } from '../read/whole-document.js';

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
 * it ends the trajectory and no observation follows it by design. A result
 * without a `source_call_id` in a step with calls (Terminus-2 records the
 * terminal output after the step's keystrokes so) answers the step's calls that
 * no result names, with one `ingest-note` per run (when every call has its own
 * result, it is counted as skipped). Steps of other sources
 * without calls (the prompt) and results without a `source_call_id` in a step
 * without calls are counted as skipped.
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
    const byStep = { calls: 0, firstLine: 0 };
    const start = (head: unknown, lineOf: LineOf): StepContext => {
      trajectory = isObject(head) && VERSION.test(str(head, 'schema_version') ?? '');
      const runId = isObject(head) ? idOf(head, 'session_id') : null;
      const agent = isObject(head) ? own(head, 'agent') : undefined;
      const tools = trajectory && isObject(agent) ? catalogTools(own(agent, 'tool_definitions')) : null;
      if (tools !== null && tools.length > 0) sink.record(catalogRecord(tools, { loc: { file: input.file, line: lineOf(['agent', 'tool_definitions']) }, runId, ts: null }));
      return { file: input.file, runId, lineOf, sink, toolOf, byStep };
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
    if (byStep.calls > 0) {
      sink.diagnostic({ ruleId: 'ingest-note', line: byStep.firstLine, runId: context.runId, message: `${byStep.calls} call(s) answered by an observation result without source_call_id in their own step (paired by step, not by id)` });
    }
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
  /** Calls answered by a result without source_call_id in their step, and where the first one is. */
  readonly byStep: { calls: number; firstLine: number };
}

type At = (sub: Array<string | number>) => Place;
type FinishedCall = { callId: string | null; tool: string; place: Place; args: unknown };
type StepCall = { callId: string; tool: string };
/** A result without a source call in a step with calls: the environment's answer to the step. */
type LooseResult = { content: unknown; isError: boolean; j: number; value: unknown };

function readStep(step: JsonObject, index: number, context: StepContext): void {
  const { file, runId, lineOf, sink } = context;
  const ts = toMillis(own(step, 'timestamp'));
  const at: At = (sub) => ({ loc: { file, line: lineOf(sub) }, runId, ts, spanId: idOf(step, 'step_id') });
  const source = str(step, 'source');
  if (source === 'agent') sink.record(llmRecord(at([])));
  const calls = own(step, 'tool_calls');
  const hasCalls = Array.isArray(calls) && calls.length > 0;
  const { finished, stepCalls } = Array.isArray(calls) ? readCalls(calls, index, at, context) : { finished: [], stepCalls: [] };
  const observation = own(step, 'observation');
  const results = isObject(observation) ? own(observation, 'results') : undefined;
  const hasResults = Array.isArray(results) && results.length > 0;
  // A user or system step (the prompt) holds no calls: read past, and counted.
  if (source !== 'agent' && !hasCalls && !hasResults) sink.skip({ line: lineOf([]), reason: `step of source ${quotedName(source)} without tool calls`, value: step });
  const { answered, loose } = Array.isArray(results) ? readResults(results, stepCalls, at, context) : { answered: new Set<string>(), loose: [] };
  answerByStep(stepCalls.filter((call) => !answered.has(call.callId)), loose, at, context);
  for (const call of finished) {
    if (call.callId !== null && answered.has(call.callId)) continue;
    sink.record(toRecord({ kind: 'result', callId: call.callId, tool: call.tool, content: call.args, isError: false, errorClass: null, errorCode: null }, call.place));
  }
}

/** A step's tool calls: recorded, with the finish-tool calls (answered by their own arguments) and the others kept apart. */
function readCalls(calls: readonly unknown[], index: number, at: At, { runId, lineOf, sink, toolOf }: StepContext): { finished: FinishedCall[]; stepCalls: StepCall[] } {
  const finished: FinishedCall[] = [];
  const stepCalls: StepCall[] = [];
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
    else if (callId !== null) stepCalls.push({ callId, tool });
  });
  return { finished, stepCalls };
}

/** A step's observation results: those naming their call recorded; those without one kept loose when the step has calls. */
function readResults(results: readonly unknown[], stepCalls: readonly StepCall[], at: At, { lineOf, sink, toolOf }: StepContext): { answered: Set<string>; loose: LooseResult[] } {
  const answered = new Set<string>();
  const loose: LooseResult[] = [];
  results.forEach((result: unknown, j) => {
    const line = lineOf(['observation', 'results', j]);
    if (!isObject(result)) return sink.skip({ line, reason: 'observation result that is not an object', value: result });
    const callId = idOf(result, 'source_call_id');
    if (callId === null && stepCalls.length > 0) return void loose.push({ content: own(result, 'content'), isError: own(result, 'is_error') === true, j, value: result });
    // A result without a source call, in a step without calls, is environment output, not a tool's answer.
    if (callId === null) return sink.skip({ line, reason: 'observation result without source_call_id', value: result });
    answered.add(callId);
    sink.record(toRecord({ kind: 'result', callId, tool: toolOf.get(callId) ?? null, content: own(result, 'content'), isError: own(result, 'is_error') === true, errorClass: null, errorCode: null }, at(['observation', 'results', j])));
  });
  return { answered, loose };
}

/** The loose results of a step answer its unanswered calls together; when none is left, they are environment output. */
function answerByStep(unanswered: readonly StepCall[], loose: readonly LooseResult[], at: At, { lineOf, sink, byStep }: StepContext): void {
  if (unanswered.length === 0) {
    // Every call of the step has its own result: the rest is environment output, as in a step without calls.
    for (const r of loose) sink.skip({ line: lineOf(['observation', 'results', r.j]), reason: 'observation result without source_call_id', value: r.value });
  } else if (loose.length > 0) {
    const content = loose.length === 1 ? loose[0]!.content : loose.map((r) => r.content);
    const isError = loose.some((r) => r.isError);
    if (byStep.calls === 0) byStep.firstLine = lineOf(['observation', 'results', loose[0]!.j]);
    byStep.calls += unanswered.length;
    for (const call of unanswered) {
      sink.record(toRecord({ kind: 'result', callId: call.callId, tool: call.tool, content, isError, errorClass: null, errorCode: null }, at(['observation', 'results', loose[0]!.j])));
    }
  }
}

