import type { CallFact } from './facts.js';
import type { MappedSpan } from './conventions/map-span.js';

export interface OrderPairing {
  /** Tool spans without a call id → the model's call they were paired with (which may have no id either). */
  readonly assigned: ReadonlyMap<MappedSpan, CallFact>;
  /** Model calls without an id, paired with a tool span that has one → that id (any-agent: ids only on tool spans). */
  readonly idOf: ReadonlyMap<CallFact, string>;
  /** One ingest-note per inference (never a silent pairing). */
  readonly notes: ReadonlyArray<{ line: number; message: string; callId: string | null; tool: string | null }>;
}

/**
 * Tool spans that carry no call id (older instrumentations) are paired with the
 * tool calls of the model span that asked for them: the nearest model-span
 * ancestor, else the latest model span that ended before the tool span began.
 * In start order, each takes that model span's first unclaimed call of the same
 * tool name (with or without an id: an id-less model call then stands for the
 * tool span's call, so it is not counted twice). Every pairing, and every tool
 * span left unpaired, is said in a note.
 */
export function pairByOrder(spans: readonly MappedSpan[], byId: ReadonlyMap<string, MappedSpan>): OrderPairing {
  const assigned = new Map<MappedSpan, CallFact>();
  const idOf = new Map<CallFact, string>();
  const notes: Array<{ line: number; message: string; callId: string | null; tool: string | null }> = [];
  // Model calls without an id (any-agent) are paired with the tool spans that carry one, as tool spans without one are.
  const idlessCalls = spans.some((s) => s.facts.model && s.facts.outputCalls.some((c) => c.id === null));
  const idless = spans.filter((s) => s.facts.tool !== null && (s.facts.tool.id === null || idlessCalls));
  if (idless.length === 0) return { assigned, idOf, notes };
  // Model spans with calls, by end time (those without one cannot precede anything).
  const models = spans
    .filter((s) => s.facts.model && s.facts.outputCalls.length > 0 && endOf(s) !== null)
    .sort((a, b) => endOf(a)! - endOf(b)!);
  const claimed = new Set<CallFact>();
  const byStart = [...idless].sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0));
  for (const span of byStart) {
    const name = span.facts.tool!.name ?? span.name;
    const toolId = span.facts.tool!.id;
    const model = askingModel(span, byId, models);
    if (toolId !== null) {
      // A tool span with an id takes the model's first unclaimed id-less call of its tool; else its id pairs it.
      const call = model?.facts.outputCalls.find((c) => !claimed.has(c) && c.id === null && c.name === name);
      if (!model || !call) continue;
      claimed.add(call);
      assigned.set(span, call);
      idOf.set(call, toolId);
      notes.push({
        line: span.line,
        callId: toolId,
        tool: name,
        message: `model span '${model.spanId}' asked for '${name}' without a call id: paired by order with tool span '${span.spanId}' (call id '${toolId}')`,
      });
      continue;
    }
    const call = model?.facts.outputCalls.find((c) => !claimed.has(c) && c.name === name);
    if (!model || !call) {
      notes.push({
        line: span.line,
        callId: null,
        tool: name,
        message: `tool span '${span.spanId}' for '${name}' has no call id and no model span's tool call to pair it with by order; its call and result stay without an id`,
      });
      continue;
    }
    claimed.add(call);
    assigned.set(span, call);
    const which = call.id === null ? `the model's call of '${name}' (which has no call id either)` : `call '${call.id}'`;
    notes.push({
      line: span.line,
      callId: call.id,
      tool: name,
      message: `tool span '${span.spanId}' for '${name}' has no call id: paired by order with ${which} of model span '${model.spanId}'`,
    });
  }
  return { assigned, idOf, notes };
}

function askingModel(span: MappedSpan, byId: ReadonlyMap<string, MappedSpan>, models: readonly MappedSpan[]): MappedSpan | null {
  let parentId = span.parentId;
  for (let hops = 0; parentId !== null && hops < 10_000; hops += 1) {
    const parent = byId.get(parentId);
    if (!parent) break;
    if (parent.facts.model && parent.facts.outputCalls.length > 0) return parent;
    parentId = parent.parentId;
  }
  // The latest model span that ended at or before this span began (binary search over end times).
  const start = span.startMs ?? Number.POSITIVE_INFINITY;
  let lo = 0;
  let hi = models.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (endOf(models[mid]!)! <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? models[lo - 1]! : null;
}

function endOf(span: MappedSpan): number | null {
  return span.endMs ?? span.startMs;
}
