import { isObject, own, str, type JsonObject } from '../facts/fields.js';
import { resultFact, type FactCollector, type Place, type ToolFact } from '../facts/tool-facts.js';

/** Which invocation input an observation answers, and how each is named and read. */
interface Kind {
  readonly input: string;
  readonly output: string;
  readonly name: (input: JsonObject) => string;
  readonly args: (input: JsonObject) => unknown;
  readonly result: (output: JsonObject) => { content: unknown; isError: boolean };
}

const KINDS: readonly Kind[] = [
  {
    input: 'actionGroupInvocationInput',
    output: 'actionGroupInvocationOutput',
    name: (i) => {
      const group = str(i, 'actionGroupName') ?? 'action_group';
      const fn = str(i, 'function');
      return fn !== null ? `${group}__${fn}` : `${group}__${str(i, 'verb') ?? ''}${str(i, 'apiPath') ?? ''}`;
    },
    args: actionArgs,
    result: (o) => ({ content: own(o, 'text') ?? o, isError: false }),
  },
  {
    input: 'knowledgeBaseLookupInput',
    output: 'knowledgeBaseLookupOutput',
    name: (i) => `knowledge_base__${str(i, 'knowledgeBaseId') ?? ''}`,
    args: (i) => ({ text: own(i, 'text') }),
    result: (o) => ({ content: own(o, 'retrievedReferences') ?? o, isError: false }),
  },
  {
    input: 'agentCollaboratorInvocationInput',
    output: 'agentCollaboratorInvocationOutput',
    name: (i) => `agent_collaborator__${str(i, 'agentCollaboratorName') ?? ''}`,
    args: (i) => own(i, 'input') ?? {},
    result: (o) => ({ content: own(o, 'output') ?? o, isError: false }),
  },
  {
    input: 'codeInterpreterInvocationInput',
    output: 'codeInterpreterInvocationOutput',
    name: () => 'code_interpreter',
    args: (i) => ({ code: own(i, 'code'), files: own(i, 'files') }),
    result: (o) => {
      const failed = own(o, 'executionError') ?? (own(o, 'executionTimeout') === true ? 'execution timed out' : undefined);
      return { content: failed ?? own(o, 'executionOutput') ?? o, isError: failed !== undefined && failed !== null };
    },
  },
];

/** An action group's `parameters` and `requestBody` properties (lists of `{name, type, value}`) as one object. */
function actionArgs(input: JsonObject): Record<string, unknown> {
  const args: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const take = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const p of list) if (isObject(p) && str(p, 'name') !== null) args[str(p, 'name')!] = own(p, 'value');
  };
  take(own(input, 'parameters'));
  const body = own(input, 'requestBody');
  const content = isObject(body) ? own(body, 'content') : undefined;
  if (isObject(content)) for (const media of Object.values(content)) if (isObject(media)) take(own(media, 'properties'));
  return args;
}

/**
 * The tool calls of a Bedrock Agents `InvokeAgent` stream, from its `trace` events in
 * order. In every step trace (`orchestrationTrace`, `routingClassifierTrace` …) an
 * `invocationInput` is a call (an action group, a knowledge base lookup, an agent
 * collaborator, the code interpreter) and an `observation` holding the matching output
 * its result; `finalResponse` and the other observations answer no call. A call's id is
 * its `traceId` (a step's second call of the same trace id gets `<traceId>#2`, and so on);
 * an observation answers the earliest unanswered call of its kind with its trace id, so
 * collaborators' traces interleaved in one stream pair right. Each `modelInvocationOutput`
 * is one model call. Calls and results take their event's `eventTime`.
 */
export class AgentTraces {
  private readonly ids = new Map<string, number>();
  private readonly open = new Map<string, string[]>();

  constructor(private readonly collector: FactCollector) {}

  read(traces: readonly unknown[], place: Place): void {
    for (const event of traces) {
      if (!isObject(event)) continue;
      const at = Date.parse(str(event, 'eventTime') ?? '');
      const here: Place = Number.isNaN(at) ? place : { ...place, ts: at };
      const trace = own(event, 'trace');
      if (!isObject(trace)) continue;
      for (const step of Object.values(trace)) if (isObject(step)) this.step(step, here);
    }
  }

  private step(step: JsonObject, place: Place): void {
    if (isObject(own(step, 'modelInvocationOutput'))) this.collector.llm(place);
    const input = own(step, 'invocationInput');
    if (isObject(input)) for (const fact of this.calls(input)) this.collector.fact(fact, place);
    const observation = own(step, 'observation');
    if (isObject(observation)) for (const fact of this.results(observation)) this.collector.fact(fact, place);
  }

  private calls(input: JsonObject): ToolFact[] {
    const traceId = str(input, 'traceId');
    const facts: ToolFact[] = [];
    for (const kind of KINDS) {
      const given = own(input, kind.input);
      if (!isObject(given)) continue;
      let callId: string | null = null;
      if (traceId !== null) {
        const n = (this.ids.get(traceId) ?? 0) + 1;
        this.ids.set(traceId, n);
        callId = n === 1 ? traceId : `${traceId}#${n}`;
        const key = `${kind.input} ${traceId}`;
        this.open.set(key, [...(this.open.get(key) ?? []), callId]);
      }
      facts.push({ kind: 'call', callId, tool: kind.name(given), args: kind.args(given) });
    }
    return facts;
  }

  private results(observation: JsonObject): ToolFact[] {
    const traceId = str(observation, 'traceId');
    const facts: ToolFact[] = [];
    for (const kind of KINDS) {
      const output = own(observation, kind.output);
      if (!isObject(output)) continue;
      const waiting = traceId === null ? undefined : this.open.get(`${kind.input} ${traceId}`);
      const callId = waiting?.shift() ?? traceId;
      const { content, isError } = kind.result(output);
      const name = kind.input === 'agentCollaboratorInvocationInput' ? kind.name(output) : null;
      facts.push(resultFact(callId, name, content, isError));
    }
    return facts;
  }
}
