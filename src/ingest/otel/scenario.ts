import type { RecordSink } from '../types.js';
import type { MappedSpan } from './conventions/map-span.js';
import { attrStr } from './span.js';

/**
 * What names a trace's run across reruns of the agent suite, as its spans say it
 * (docs/action.md, "A stable scenario name in each trace format"). Trace and span ids
 * are new on every run, so a run is known by, first, a test or scenario attribute on
 * any of its spans; else its root span's name with its agent's name and its task input
 * (the first model input or prompt), so that two scenarios of one agent stay apart.
 */
const NAME_KEYS = ['agent_trace_audit.scenario', 'test.case.name', 'test.name', 'scenario.name', 'eval.case.id', 'langfuse.trace.name', 'session.name'] as const;
const AGENT_KEYS = ['gen_ai.agent.name', 'agent.name', 'gcp.vertex.agent.agent_name'] as const;
const INPUT_KEYS = ['gen_ai.input.messages', 'gen_ai.prompt', 'gen_ai.prompt.0.content', 'gen_ai.prompt.1.content', 'input.value', 'ai.prompt', 'gen_ai.request.input'] as const;

export interface SpanScenario {
  readonly name: string | null;
  readonly agent: string | null;
  readonly input: string | null;
}

/** The scenario facts of a span's attributes; null when it has none (most spans). */
export function spanScenario(attrs: ReadonlyMap<string, unknown>): SpanScenario | null {
  const name = first(attrs, NAME_KEYS);
  const agent = first(attrs, AGENT_KEYS);
  const input = first(attrs, INPUT_KEYS);
  return name === null && agent === null && input === null ? null : { name, agent, input };
}

function first(attrs: ReadonlyMap<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = attrStr(attrs, key);
    if (value !== null && value !== '') return value;
  }
  return null;
}

/**
 * Tells `sink` the scenario of a trace's run (`traceId`) and of each agent run as a tool
 * in it (`<trace id>/<tool span id>`: the trace's scenario and the tool span's name).
 */
export function traceScenarios(traceId: string | null, spans: readonly MappedSpan[], byId: ReadonlyMap<string, MappedSpan>, runIds: Iterable<string | null>, sink: RecordSink): void {
  if (sink.scenario === undefined) return;
  let named: string | null = null;
  let agent: string | null = null;
  let input: { at: number; text: string } | null = null;
  let root: MappedSpan | null = null;
  for (const span of spans) {
    if ((span.parentId === null || !byId.has(span.parentId)) && (root === null || (span.startMs ?? 0) < (root.startMs ?? 0))) root = span;
    const s = span.scenario;
    if (s === null) continue;
    named ??= s.name;
    agent ??= s.agent;
    if (s.input !== null && (input === null || (span.startMs ?? 0) < input.at)) input = { at: span.startMs ?? 0, text: s.input };
  }
  const name = named ?? (root === null ? null : [root.name, agent ?? '', input?.text ?? ''].join('\u0000'));
  if (name === null && input === null) return;
  for (const runId of runIds) {
    const tool = runId !== null && runId !== traceId ? byId.get(runId.slice(runId.lastIndexOf('/') + 1)) : undefined;
    const own = tool === undefined ? name : `${name ?? ''}\u0000${tool.name}`;
    sink.scenario({ runId, ...(own === null ? {} : { name: own }), ...(input === null ? {} : { input: input.text }) });
  }
}
