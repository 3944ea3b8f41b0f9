import type { SourceLocation, TraceRecord } from '../../model/records.js';
import type { RecordSink } from '../types.js';
import type { CallFact } from './facts.js';
import type { MappedSpan } from './conventions/map-span.js';
import { agentRuns, runsAgent } from './agent-runs.js';
import { pairByOrder, type OrderPairing } from './pair-by-order.js';
import { traceScenarios } from './scenario.js';

/** One thing that happened in a trace, placed in time: at a span's start (phase 0) or end (phase 1). */
interface Moment {
  readonly at: number;
  readonly phase: 0 | 1;
  readonly order: number;
  readonly span: MappedSpan;
}

/**
 * Turns one trace's spans into records, in time order. A tool call is known
 * from several places (the model's output, later model inputs, the tool span):
 * it becomes ONE tool_call where it is first seen; its result ONE tool_result
 * (tool span end, or the first model input that carries it). Model spans nested
 * in a model span (ADK call_llm → generate_content → openai.chat) are one request:
 * only the outermost becomes an llm record. An agent run as a tool is its own run (agent-runs.ts).
 */
export function assembleTrace(file: string, traceId: string | null, spans: readonly MappedSpan[], sink: RecordSink, part?: TracePart): void {
  const byId = new Map<string, MappedSpan>();
  for (const span of spans) if (!byId.has(span.spanId)) byId.set(span.spanId, span);
  const pairing = pairByOrder(spans, byId);
  const runOf = agentRuns(traceId, spans, byId);
  const records = new TraceRecords(file, runOf, spans, byId, pairing, part?.seen ?? newSeen());
  for (const note of pairing.notes) sink.diagnostic({ ruleId: 'ingest-note', runId: traceId, ...note });

  const moments: Moment[] = [];
  spans.forEach((span, order) => {
    const start = span.startMs ?? span.endMs ?? 0;
    moments.push({ at: start, phase: 0, order, span });
    if (span.endMs !== null) moments.push({ at: span.endMs, phase: 1, order, span });
  });
  moments.sort((a, b) => a.at - b.at || a.phase - b.phase || a.order - b.order);
  for (const { at, phase, span } of moments) {
    if (phase === 0) records.spanStarts(span, at);
    else records.spanEnds(span, at);
  }
  traceScenarios(traceId, spans, byId, new Set([traceId, ...records.out.map((r) => r.runId)]), sink);
  for (const record of records.out) sink.record(record);
  // The runs of agents run as tools end with their trace.
  if (part === undefined || part.last) for (const runId of new Set([...records.out.map((r) => r.runId), traceId])) sink.endRun?.(runId);
}

/** What the parts of one trace share (a trace assembled in parts, limits.max-run-records). */
export interface TraceSeen {
  readonly calls: Set<string>;
  readonly results: Set<string>;
  readonly executed: Set<string>;
  lastCatalog: string | null;
}

export function newSeen(): TraceSeen {
  return { calls: new Set(), results: new Set(), executed: new Set(), lastCatalog: null };
}

/**
 * A part of a trace too long to hold whole (trace-buffer.ts): the ids its earlier parts
 * already gave a call or result (a later request's input repeats every earlier call, so
 * they are not given again), and whether it is the last part (which ends the run).
 */
export interface TracePart {
  readonly seen: TraceSeen;
  readonly last: boolean;
}

/** The records of one trace as its moments are played in time order, with what each call and result id has already given. */
class TraceRecords {
  readonly out: TraceRecord[] = [];
  private readonly callsSeen: Set<string>;
  private readonly resultsSeen: Set<string>;
  private readonly executedIds: Set<string>;
  /** The llm record of each outermost model span: a nested model span's input and tools belong before it. */
  private readonly turns = new Map<MappedSpan, TraceRecord>();
  private readonly wrapsCalls: Set<MappedSpan>;
  private readonly modelAbove: (span: MappedSpan) => boolean;
  private readonly outermost: (span: MappedSpan) => MappedSpan;

  constructor(
    private readonly file: string,
    private readonly runOf: (span: MappedSpan) => string | null,
    private readonly spans: readonly MappedSpan[],
    byId: ReadonlyMap<string, MappedSpan>,
    private readonly pairing: OrderPairing,
    private readonly seen: TraceSeen,
  ) {
    this.callsSeen = seen.calls;
    this.resultsSeen = seen.results;
    this.executedIds = seen.executed;
    this.wrapsCalls = modelsWrappingCalls(spans, byId, runOf);
    this.modelAbove = modelAncestry(byId, runOf);
    this.outermost = outermostModel(byId, runOf);
  }

  /**
   * A span starts. The request's input (earlier calls and their results) happened before the request:
   * its records come first, then the catalog offered with it, then the llm record. A model
   * span nested in another is the same request: its input and tools go before that llm record.
   */
  spanStarts(span: MappedSpan, at: number): void {
    const facts = span.facts;
    const tool = facts.tool;
    const nested = facts.model && this.modelAbove(span);
    const turn = nested ? this.turns.get(this.outermost(span)) : undefined;
    for (const call of facts.historyCalls) if (call.id !== null) this.emitCall(span, at, call, false, turn);
    for (const result of facts.historyResults) {
      if (result.id === null || this.resultsSeen.has(result.id)) continue;
      this.resultsSeen.add(result.id);
      this.put({ kind: 'tool_result', ...this.base(span, at), callId: result.id, tool: result.name, content: result.content, isError: result.isError, errorClass: null, errorCode: null, httpStatus: null, exitCode: null, index: null }, turn);
    }
    if (facts.catalog !== null) {
      const key = JSON.stringify(facts.catalog.map((t) => t.name));
      if (key !== this.seen.lastCatalog) {
        this.seen.lastCatalog = key;
        this.put({ kind: 'catalog', ...this.base(span, at), tools: facts.catalog, names: facts.catalog.map((t) => t.name), recordedSha256: null, perRequest: true }, turn);
      }
    }
    if (facts.model && !nested) {
      const llm: TraceRecord = { kind: 'llm', ...this.base(span, at), endTs: span.endMs === null ? null : Math.round(span.endMs) };
      this.out.push(llm);
      this.turns.set(span, llm);
    }
    const claimed = this.pairing.assigned.get(span);
    // An id-less model call claimed by this span already stands for its call.
    if (tool !== null && !(claimed !== undefined && claimed.id === null)) {
      const id = tool.id ?? claimed?.id ?? null;
      // A second tool span with an id already executed is a real second execution: keep it (duplicate-call-id).
      const again = id !== null && this.executedIds.has(id);
      if (id !== null) this.executedIds.add(id);
      this.emitCall(span, at, { id, name: tool.name ?? span.name, args: tool.args }, again);
    }
  }

  /** A span ends: the calls in a model's output, and a tool span's result. */
  spanEnds(span: MappedSpan, at: number): void {
    const tool = span.facts.tool;
    for (const call of span.facts.outputCalls) {
      // Without an id a call cannot be deduplicated: take it from the innermost model span that reports it.
      if (call.id === null && this.wrapsCalls.has(span)) continue;
      const toolId = call.id === null ? this.pairing.idOf.get(call) : undefined;
      this.emitCall(span, at, toolId === undefined ? call : { ...call, id: toolId }, false);
    }
    if (tool === null) return;
    const id = tool.id ?? this.pairing.assigned.get(span)?.id ?? null;
    if (id !== null && this.resultsSeen.has(id) && !executedTwice(id, span, this.spans)) return;
    if (id !== null) this.resultsSeen.add(id);
    const error = span.error;
    const isError = error.failed || tool.resultIsError;
    this.out.push({
      kind: 'tool_result',
      ...this.base(span, at),
      callId: id,
      tool: tool.name ?? span.name,
      content: tool.result !== undefined ? tool.result : isError ? (error.message ?? undefined) : undefined,
      isError,
      errorClass: isError ? (error.exceptionType ?? error.errorType) : null,
      errorCode: isError ? error.errorType : null,
      httpStatus: null,
      exitCode: null,
      index: null,
    });
  }

  private base(span: MappedSpan, at: number) {
    return { loc: { file: this.file, line: span.line } as SourceLocation, runId: this.runOf(span), ts: Math.round(at), spanId: span.spanId, catalogSha256: null };
  }

  /** Appends, or puts the record right before `before` (the llm record of the turn it belongs to). */
  private put(record: TraceRecord, before?: TraceRecord): void {
    const at = before === undefined ? -1 : this.out.lastIndexOf(before);
    if (at === -1) this.out.push(record);
    else this.out.splice(at, 0, record);
  }

  private emitCall(span: MappedSpan, at: number, call: CallFact, force: boolean, before?: TraceRecord): void {
    if (call.id !== null) {
      if (this.callsSeen.has(call.id) && !force) return;
      this.callsSeen.add(call.id);
    }
    this.put({ kind: 'tool_call', ...this.base(span, at), callId: call.id, tool: call.name, args: call.args, argsHash: null, deadlineMs: null, index: null }, before);
  }
}

/** Does a span have a model span above it? Memoized, so a deep span tree costs one walk per span. */
function modelAncestry(byId: ReadonlyMap<string, MappedSpan>, runOf: (span: MappedSpan) => string | null): (span: MappedSpan) => boolean {
  const memo = new Map<MappedSpan, boolean>();
  return (span) => {
    const path = new Set<MappedSpan>();
    let answer = false;
    let current = span;
    for (;;) {
      const known = memo.get(current);
      if (known !== undefined) {
        answer = known;
        break;
      }
      path.add(current);
      const parent = current.parentId === null ? undefined : byId.get(current.parentId);
      if (parent === undefined || path.has(parent) || runsAgent(parent, runOf, current)) break;
      if (parent.facts.model) {
        answer = true;
        break;
      }
      current = parent;
    }
    // Every span on the path has the same answer: the first model span (or none) above the top of the path.
    for (const visited of path) memo.set(visited, answer);
    return answer;
  };
}

/** The outermost model span above a nested model span (the span itself when none is above it). */
function outermostModel(byId: ReadonlyMap<string, MappedSpan>, runOf: (span: MappedSpan) => string | null): (span: MappedSpan) => MappedSpan {
  return (span) => {
    let top = span;
    const seen = new Set<MappedSpan>([span]);
    for (let child = span, parent = span.parentId === null ? undefined : byId.get(span.parentId); parent !== undefined && !seen.has(parent); child = parent, parent = parent.parentId === null ? undefined : byId.get(parent.parentId)) {
      if (runsAgent(parent, runOf, child)) break;
      seen.add(parent);
      if (parent.facts.model) top = parent;
    }
    return top;
  };
}

/** Model spans with a model span below them that reports output calls (the same request, seen twice). */
function modelsWrappingCalls(spans: readonly MappedSpan[], byId: ReadonlyMap<string, MappedSpan>, runOf: (span: MappedSpan) => string | null): Set<MappedSpan> {
  const out = new Set<MappedSpan>();
  for (const span of spans) {
    if (!span.facts.model || span.facts.outputCalls.length === 0) continue;
    let child = span;
    let parentId = span.parentId;
    for (let hops = 0; parentId !== null && hops < 10_000; hops += 1) {
      const parent = byId.get(parentId);
      if (!parent || out.has(parent) || runsAgent(parent, runOf, child)) break;
      if (parent.facts.model) out.add(parent);
      child = parent;
      parentId = parent.parentId;
    }
  }
  return out;
}

/** More than one tool span executed this call id: each execution keeps its own result. */
const executedTwice = (id: string, span: MappedSpan, spans: readonly MappedSpan[]): boolean => spans.some((other) => other !== span && other.facts.tool !== null && other.facts.tool.id === id);
