import { idOf, own, str, type JsonObject } from '../facts/fields.js';
import { argsOf } from '../facts/tool-facts.js';
import { attributesOf as readAttributes } from './attributes.js';
import { unquote } from './tool-span.js';

/** An observation as the Langfuse reader holds it (the fields this module needs). */
interface Obs {
  readonly obj: JsonObject;
  readonly start: number | null;
}

/** One tool execution that BeeAI recorded as emitter events, read as a call and its result (no call id). */
export interface BeeAiExecution<O extends Obs> {
  /** The observation the call is placed at (the tool's `start` event, or the agent update that names the call). */
  readonly call: O;
  /** The observation the result is placed at (the tool's `success`/`error` event, or the agent update with the output). */
  readonly result: O | null;
  /** Every observation this execution reads (none of them is a skipped record). */
  readonly parts: readonly O[];
  readonly tool: string;
  readonly args: unknown;
  readonly content: unknown;
  readonly isError: boolean;
  /** When the tool finished: the start of its result event (BeeAI's event spans all end when the run ends). */
  readonly resultAt: number | null;
}

/** `tool.<path>.<event>` targets of BeeAI's emitter (`tool.search.wikipedia.start`), and its name suffix (`-12`). */
const TOOL_EVENT = /^tool\.(.{1,200})\.(start|finish|success|error)$/;
const SUFFIX = /-(\d{1,12})$/;

/** Whether an observation's attributes make it one BeeAI reads (an emitter event or a ReAct agent update); false means none of its runs needs it. */
export function mayBeBeeAi(attrs: JsonObject): boolean {
  const target = str(attrs, 'target');
  return target !== null && (TOOL_EVENT.test(target) || target === 'agent.react.update' || target === 'agent.react.partial_update');
}

/**
 * BeeAI (beeai-framework's OpenInference exporter) records a tool run as three
 * SPAN observations, `tool.<path>.start-N`, `.finish-N` and `.success-N` (or
 * `.error-N`), under the ReAct agent's update that chose the tool (its
 * `tool.name`). A tool without emitter events (OpenMeteo) is known only from
 * the agent's updates: the last `agent.react.update` of an iteration with a
 * `tool.name` and an `output.value` is its call and output. The tool events of
 * one execution share parent, path and N.
 */
export function beeAiExecutions<O extends Obs>(observations: readonly O[]): Array<BeeAiExecution<O>> {
  // `metadata` is JSON text in some exports: parse each observation's once.
  const cache = new Map<JsonObject, JsonObject>();
  const attributesOf = (obj: JsonObject): JsonObject => {
    let attrs = cache.get(obj);
    if (attrs === undefined) cache.set(obj, (attrs = readAttributes(obj)));
    return attrs;
  };
  const byId = new Map<string, O>();
  for (const o of observations) {
    const id = idOf(o.obj, 'id');
    if (id !== null) byId.set(id, o);
  }
  const groups = new Map<string, { start?: O; end?: O; error: boolean; parts: O[]; parent: string | null }>();
  for (const o of observations) {
    const event = TOOL_EVENT.exec(str(attributesOf(o.obj), 'target') ?? '');
    const n = SUFFIX.exec(str(o.obj, 'name') ?? '');
    if (!event || !n) continue;
    const parent = idOf(o.obj, 'parentObservationId');
    const key = `${parent ?? ''}\u0000${event[1]}\u0000${n[1]}`;
    const group = groups.get(key) ?? { error: false, parts: [], parent };
    group.parts.push(o);
    if (event[2] === 'start') group.start ??= o;
    if (event[2] === 'success' || event[2] === 'error') {
      group.end ??= o;
      group.error ||= event[2] === 'error';
    }
    groups.set(key, group);
  }
  const out: Array<BeeAiExecution<O>> = [];
  /** Agent iterations (the parent of the agent's updates) whose tool run the emitter events already give. */
  const covered = new Set<string>();
  for (const group of groups.values()) {
    if (group.start === undefined) continue;
    const chooser = group.parent === null ? undefined : byId.get(group.parent);
    const iteration = chooser === undefined ? null : idOf(chooser.obj, 'parentObservationId');
    if (iteration !== null) covered.add(iteration);
    const startAttrs = attributesOf(group.start.obj);
    const tool = (chooser && str(attributesOf(chooser.obj), 'tool.name')) ?? str(startAttrs, 'target')!.slice('tool.'.length, -'.start'.length);
    out.push({
      call: group.start,
      result: group.end ?? null,
      parts: group.parts,
      tool,
      args: argsOf(own(startAttrs, 'tool.parameters')),
      content: group.end === undefined ? undefined : outputOf(group.end, attributesOf(group.end.obj)),
      isError: group.error,
      resultAt: group.end === undefined ? null : group.end.start,
    });
  }
  out.push(...agentUpdateRuns(observations, covered, attributesOf));
  return out.sort((a, b) => (a.call.start ?? Infinity) - (b.call.start ?? Infinity));
}

/** Tool runs known only from the ReAct agent's updates, one per iteration the emitter events do not cover. */
function agentUpdateRuns<O extends Obs>(observations: readonly O[], covered: ReadonlySet<string>, attributesOf: (obj: JsonObject) => JsonObject): Array<BeeAiExecution<O>> {
  const byIteration = new Map<string, O[]>();
  for (const o of observations) {
    const target = str(attributesOf(o.obj), 'target');
    const iteration = idOf(o.obj, 'parentObservationId');
    if ((target !== 'agent.react.update' && target !== 'agent.react.partial_update') || iteration === null || covered.has(iteration)) continue;
    const list = byIteration.get(iteration) ?? [];
    list.push(o);
    byIteration.set(iteration, list);
  }
  const out: Array<BeeAiExecution<O>> = [];
  for (const updates of byIteration.values()) {
    const withArgs = updates.find((o) => hasArgs(attributesOf(o.obj)));
    const answered = updates.find((o) => {
      const attrs = attributesOf(o.obj);
      return hasArgs(attrs) && str(attrs, 'output.value') !== null;
    });
    if (withArgs === undefined || answered === undefined) continue;
    const attrs = attributesOf(answered.obj);
    out.push({
      call: withArgs,
      result: answered,
      parts: updates.filter((o) => str(attributesOf(o.obj), 'tool.name') !== null),
      tool: str(attrs, 'tool.name')!,
      args: argsOf(own(attrs, 'tool.parameters')),
      content: outputOf(answered, attrs),
      isError: false,
      resultAt: answered.start,
    });
  }
  return out;
}

/** An update that names the tool and its (non-null) parameters. */
function hasArgs(attrs: JsonObject): boolean {
  const params = str(attrs, 'tool.parameters');
  return str(attrs, 'tool.name') !== null && params !== null && params !== 'null';
}

function outputOf(o: Obs, attrs: JsonObject): unknown {
  return unquote(own(o.obj, 'output') ?? own(attrs, 'output.value'));
}
