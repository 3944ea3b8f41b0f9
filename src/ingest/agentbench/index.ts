import { idOf, isObject, own, str, type JsonObject } from '../facts/fields.js';
import { forEachJsonLine } from '../read/json-lines.js';
import { FactCollector, resultFact, type Place } from '../facts/tool-facts.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';

/** A run record's message history, when it is AgentBench's: `{role: "user" | "agent", content}` turns. */
function historyOf(record: unknown): unknown[] | null {
  if (!isObject(record)) return null;
  const output = own(record, 'output');
  if (!isObject(output)) return null;
  const history = own(output, 'history');
  if (!Array.isArray(history) || history.length === 0) return null;
  const turns = history.every((m) => isObject(m) && typeof own(m, 'content') === 'string' && (own(m, 'role') === 'user' || own(m, 'role') === 'agent'));
  return turns ? history : null;
}

/** AgentBench's `runs.jsonl`: `{index, error, info, output: {index, status, result, history}, time}`; the `agent` role is its own. */
export function isAgentBenchRecord(value: unknown): boolean {
  return isObject(value) && own(value, 'index') !== undefined && historyOf(value)?.some((m) => own(m as JsonObject, 'role') === 'agent') === true;
}

/** Any line of a runs.jsonl: `{index, error, output}` (a task that failed has no history). */
function isRunRecord(value: unknown): boolean {
  return isObject(value) && own(value, 'index') !== undefined && own(value, 'output') !== undefined && own(value, 'error') !== undefined;
}

/** An action of MedAgentBench's text convention: an agent turn (after any ``` fence line) opening with GET or POST; the URL is the rest of its line (query values may hold spaces), a POST's payload the lines after. */
const HTTP_ACTION = /^(?:```[^\n]*\n)?\s*(GET|POST)[ \t]+([^\n]*?)[ \t]*(?:\n([\s\S]*?))?\s*(?:```\s*)?$/;
const FINISH = /^(?:```[^\n]*\n)?\s*FINISH\(/;
/** MedAgentBench's task prompt (the first user turn) states its action convention: GET url?…, POST url + payload, FINISH([...]). */
function isMedAgentBench(history: unknown[]): boolean {
  const prompt = str(history[0] as JsonObject, 'content') ?? '';
  return own(history[0] as JsonObject, 'role') === 'user' && prompt.includes('GET url?') && prompt.includes('POST url') && prompt.includes('FINISH(');
}

/** How MedAgentBench answers a request it could not send. */
const SEND_ERROR = /^Error in sending the (GET|POST) request/;

interface Action {
  readonly tool: 'GET' | 'POST';
  readonly args: JsonObject;
}

function actionOf(content: string): Action | null {
  const match = HTTP_ACTION.exec(content.trim());
  if (!match) return null;
  const args: JsonObject = Object.create(null) as JsonObject;
  args['url'] = match[2]!;
  const body = match[3]?.trim();
  if (body) {
    try {
      args['body'] = JSON.parse(body) as unknown;
    } catch {
      args['body'] = body;
    }
  }
  return { tool: match[1] as 'GET' | 'POST', args };
}

/**
 * Reads one run record. An agent turn in MedAgentBench's convention (`GET <url>`,
 * `POST <url>` + JSON body) is a call, answered by the next user turn (an error when
 * it says the request could not be sent); `FINISH(...)` is the run's answer, not a
 * call. Another agent turn is counted as skipped (the task ends on it: MedAgentBench's
 * `agent invalid action`). A record whose task prompt does not state that convention
 * (another AgentBench task: OS, DB, web …) is refused as a whole, counted as skipped
 * and tool-like (a `partial-read`): its actions are not guessed.
 */
function readRecord(record: JsonObject, history: unknown[], line: number, file: string, collector: FactCollector, sink: RecordSink): void {
  if (!isMedAgentBench(history)) {
    sink.skip({ line, reason: 'AgentBench task of an action convention not known (only MedAgentBench GET / POST / FINISH): not read', toolLike: true });
    return;
  }
  const output = own(record, 'output') as JsonObject;
  const runId = idOf(output, 'index') ?? idOf(record, 'index');
  const place: Place = { loc: { file, line }, runId, ts: null };
  let calls = 0;
  let skipped = 0;
  history.forEach((message, i) => {
    const turn = message as JsonObject;
    if (own(turn, 'role') !== 'agent') return;
    collector.llm(place);
    const content = str(turn, 'content')!;
    const action = actionOf(content);
    if (action === null) {
      if (!FINISH.test(content.trim())) skipped += 1;
      return;
    }
    calls += 1;
    const callId = `${runId ?? line}#${i}`;
    collector.fact({ kind: 'call', callId, tool: action.tool, args: action.args }, place);
    const answer = history[i + 1] as JsonObject | undefined;
    if (answer !== undefined && own(answer, 'role') === 'user') {
      const text = str(answer, 'content')!;
      collector.fact(resultFact(callId, action.tool, text, SEND_ERROR.test(text)), place);
    }
  });
  if (skipped > 0) sink.skip({ line, reason: `agent turn that is no GET / POST / FINISH action (MedAgentBench ends the task: ${str(output, 'status') ?? 'no status'})` });
  if (calls > 0) {
    sink.diagnostic({ ruleId: 'ingest-note', line, runId, message: `${calls} call(s) read from text: agent turns opening with GET or POST (MedAgentBench's convention), each answered by the next user turn; no call ids in the file` });
  }
}

/**
 * AgentBench run records (`runs.jsonl`, one record per task): each record is one
 * run (its task `index`), its `output.history` the conversation. Calls are read
 * from text (MedAgentBench's convention): one `ingest-note` per run says so.
 */
export const agentBenchFormat: TraceFormat = {
  id: 'agentbench',
  description: 'AgentBench run records (runs.jsonl: one task per line with a user / agent history; MedAgentBench GET / POST actions)',
  detect: (sample: DetectSample) => (sample.jsonLines.some(isAgentBenchRecord) && sample.jsonLines.every(isRunRecord) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    await forEachJsonLine(input, sink, (value, line) => {
      const history = historyOf(value);
      if (!isObject(value) || history === null) {
        const failed = isRunRecord(value) && own(value as JsonObject, 'error') !== null;
        sink.skip({ line, reason: failed ? 'AgentBench run record of a task that failed (an error, no history)' : 'line is no AgentBench run record (no output.history of user / agent turns)', value });
        return;
      }
      const collector = new FactCollector(false);
      readRecord(value, history, line, input.file, collector, sink);
      for (const record of collector.records) sink.record(record);
      const output = own(value, 'output') as JsonObject;
      sink.endRun?.(idOf(output, 'index') ?? idOf(value, 'index'));
    });
  },
};
