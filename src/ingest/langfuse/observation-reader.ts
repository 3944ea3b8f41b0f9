import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import { messageFacts } from '../facts/message-facts.js';
import { argsOf, catalogTools, FactCollector, resultFact, type Place, type ToolFact } from '../facts/tool-facts.js';
import type { TraceRecord } from '../../model/records.js';
import type { RecordSink } from '../types.js';
import { attributesOf, catalogOf, toolAttributes } from './attributes.js';
import type { BeeAiExecution } from './beeai.js';
import { plainMessage } from './langchain.js';
import { langfuseToolCalls, messagesIn } from './messages.js';
import { isToolSpan, saysTool, unquote } from './tool-span.js';

/** One observation as the reader holds it. */
export interface Observation {
  readonly obj: JsonObject;
  readonly line: number;
  readonly type: string;
  readonly start: number | null;
  readonly end: number | null;
}

/** An observation of the stream, with the fields the reader orders by. */
export function observation(obj: JsonObject, line: number): Observation {
  return { obj, line, type: str(obj, 'type') ?? 'SPAN', start: toMillis(own(obj, 'startTime')), end: toMillis(own(obj, 'endTime')) };
}

/**
 * The facts of one export's observations: model turns and tool executions first
 * (`primary`, in start order), then what other observations add (`fallback`).
 */
export class ObservationReader {
  readonly collector = new FactCollector(true);
  /** Call ids without a result yet, per tool, in call order (for tool observations without an id). */
  private readonly open = new Map<string, string[]>();
  /** The llm record of the model turn of each generation a generation is nested in (a nested generation shares its parent's). */
  private readonly turns = new Map<string, TraceRecord>();
  /** Tool results waiting for their span's end: they go in at that time, not at the span's start. */
  private pending: Array<{ readonly fact: ToolFact; readonly place: Place; readonly end: number }> = [];
  /** Observations read as tool executions (the fallback pass leaves them). */
  private readonly toolSpans = new Set<Observation>();
  /** BeeAI tool runs, by the observation their call is placed at. */
  private readonly beeaiCalls = new Map<Observation, BeeAiExecution<Observation>>();
  /** The generation id of each model turn's llm record not yet handed on (a nested generation's catalog may still go before it). */
  private readonly turnIds = new Map<TraceRecord, string>();

  constructor(
    private readonly file: string,
    private readonly runId: string | null,
    private readonly sink: RecordSink,
    /** The generations a generation is nested in (ExportPlan.generations). */
    private readonly generations: ReadonlySet<string>,
    beeai: ReadonlyArray<BeeAiExecution<Observation>>,
    /** Per observation of an agent run as a tool, that tool observation's id (ExportPlan.agentOf): its own run. */
    private readonly agentOf: ReadonlyMap<string, string> = new Map(),
  ) {
    for (const run of beeai) {
      this.beeaiCalls.set(run.call, run);
      for (const part of run.parts) this.toolSpans.add(part);
    }
    if (beeai.length > 0) sink.diagnostic({ ruleId: 'ingest-note', line: beeai[0]!.call.line, runId, message: `BeeAI records no call ids: ${beeai.length} tool run(s) read from its emitter events and agent updates, each call paired with its own result` });
  }

  /** The run of an observation's records: the trace's, or `<trace>/<tool observation id>` for an agent run as a tool. */
  private runOf(o: Observation): string | null {
    const id = idOf(o.obj, 'id');
    const agent = id === null ? undefined : this.agentOf.get(id);
    return agent === undefined ? this.runId : `${this.runId ?? ''}/${agent}`;
  }

  private place(o: Observation, ts: number | null): Place {
    return { loc: { file: this.file, line: o.line }, runId: this.runOf(o), ts, spanId: idOf(o.obj, 'id') };
  }

  /** Calls waiting for a tool observation, per run and tool. */
  private openKey(runId: string | null, tool: string): string {
    return `${runId ?? ''}\u0000${tool}`;
  }

  private add(fact: ToolFact, place: Place): void {
    if (fact.kind === 'call' && fact.callId !== null && !this.collector.hasCall(place.runId, fact.callId)) {
      const key = this.openKey(place.runId, fact.tool);
      const ids = this.open.get(key) ?? [];
      ids.push(fact.callId);
      this.open.set(key, ids);
    }
    if (fact.kind === 'result' && fact.callId !== null) {
      for (const ids of this.open.values()) {
        const at = ids.indexOf(fact.callId);
        if (at !== -1) ids.splice(at, 1);
      }
    }
    this.collector.fact(fact, place);
  }

  private messages(o: Observation, value: unknown, ts: number | null): void {
    for (const message of messagesIn(value)) {
      const { facts, catalog } = messageFacts(message);
      if (catalog.length > 0) this.collector.catalog(catalog, this.place(o, ts));
      for (const fact of facts) this.add(fact, this.place(o, ts));
    }
  }

  /** Adds the waiting results whose span ended by `time`, in end order. */
  flushResults(time: number): void {
    if (this.pending.length === 0) return;
    const due = this.pending.filter((p) => p.end <= time).sort((a, b) => a.end - b.end);
    if (due.length === 0) return;
    this.pending = this.pending.filter((p) => p.end > time);
    for (const { fact, place } of due) this.add(fact, place);
  }

  /** GENERATION and TOOL observations (and spans that are tool executions): the model's requests and the tools' executions. */
  primary(o: Observation): void {
    if (o.start !== null) this.flushResults(o.start);
    const beeai = this.beeaiCalls.get(o);
    if (beeai !== undefined) return this.beeAiRun(beeai);
    if (this.toolSpans.has(o)) return;
    const attrs = attributesOf(o.obj);
    if (o.type === 'GENERATION') {
      const response = argsOf(own(o.obj, 'output'));
      const tools = catalogOf(o.obj, attrs) ?? (isObject(response) ? catalogTools(own(response, 'tools')) : null);
      // A generation inside another generation is the same model turn, not a new one: its
      // tools were offered with that turn, so they go before the turn's llm record.
      const id = idOf(o.obj, 'id');
      const parent = idOf(o.obj, 'parentObservationId');
      const turn = parent === null ? undefined : this.turns.get(parent);
      if (tools && tools.length > 0) this.collector.catalog(tools, this.place(o, o.start), turn);
      // What the model was given (earlier calls and their results) comes before the model span itself;
      // otherwise a result found only in the next request's input would look late.
      this.messages(o, own(o.obj, 'input'), o.start);
      if (parent === null || !this.generations.has(parent)) {
        const llm = this.collector.llm(this.place(o, o.start), o.end);
        if (id !== null) {
          if (this.generations.has(id)) this.turns.set(id, llm);
          this.turnIds.set(llm, id);
        }
      } else if (id !== null && turn !== undefined && this.generations.has(id)) this.turns.set(id, turn);
      this.messages(o, own(o.obj, 'output'), o.end);
      for (const fact of langfuseToolCalls(o.obj)) this.add(fact, this.place(o, o.end));
    } else if (o.type === 'TOOL' || isToolSpan(o.obj, attrs)) {
      this.toolSpans.add(o);
      this.tool(o, attrs);
    } else {
      const tools = catalogOf(o.obj, attrs);
      if (tools) this.collector.catalog(tools, this.place(o, o.start));
    }
  }

  private tool(o: Observation, attrs: JsonObject): void {
    const meta = toolAttributes(attrs);
    const tool = meta.tool ?? str(o.obj, 'name') ?? 'unknown';
    // LangChain tools: the output is the ToolMessage, which knows its call id and status.
    const output = plainMessage(unquote(own(o.obj, 'output')));
    const answer = messageFacts(output).facts.find((f) => f.kind === 'result');
    let callId = meta.callId ?? (answer?.kind === 'result' ? answer.callId : null);
    if (callId === null) {
      const waiting = this.open.get(this.openKey(this.runOf(o), tool));
      if (waiting && waiting.length > 0) {
        callId = waiting[0]!;
        this.sink.diagnostic({ ruleId: 'ingest-note', line: o.line, runId: this.runOf(o), callId, tool, message: `tool observation '${tool}' has no call id; paired by order with the model's call '${callId}'` });
      }
    }
    const args = meta.args ?? argsOf(own(o.obj, 'input'));
    this.add({ kind: 'call', callId, tool, args }, this.place(o, o.start));
    const level = str(o.obj, 'level');
    const isError = level === 'ERROR' || meta.errorType !== null || (answer?.kind === 'result' && answer.isError);
    const content = (answer?.kind === 'result' ? answer.content : output) ?? meta.result ?? (isError ? own(o.obj, 'statusMessage') : undefined);
    const result = resultFact(callId, tool, content, isError, meta.errorType);
    const end = o.end ?? o.start;
    if (end === null) this.add(result, this.place(o, end));
    else this.pending.push({ fact: result, place: this.place(o, end), end });
  }

  private beeAiRun(run: BeeAiExecution<Observation>): void {
    this.add({ kind: 'call', callId: null, tool: run.tool, args: run.args }, this.place(run.call, run.call.start));
    if (run.result === null) return;
    const result = resultFact(null, run.tool, run.content, run.isError);
    if (run.resultAt === null) this.add(result, this.place(run.result, null));
    else this.pending.push({ fact: result, place: this.place(run.result, run.resultAt), end: run.resultAt });
  }

  /**
   * Reads one observation of a streamed export (in start order, no BeeAI runs): its
   * primary facts now. True when the fallback pass still needs it (it is kept), false
   * when it was read as a model turn or a tool execution (it is let go).
   */
  streamed(o: Observation): boolean {
    this.primary(o);
    // Nothing reads a streamed observation again but the fallback pass: a tool span is let go here.
    const toolSpan = this.toolSpans.delete(o);
    return o.type !== 'GENERATION' && o.type !== 'TOOL' && !toolSpan;
  }

  /**
   * Hands on the records that nothing later can go before: up to the first result
   * whose call is not read yet (a later copy of the conversation may put the call
   * before it) or model turn whose nested generations are not all read (`openTurn`:
   * their catalog goes before the turn's llm record).
   */
  drain(openTurn: (generationId: string) => boolean): void {
    const records = this.collector.records;
    let n = 0;
    for (; n < records.length; n += 1) {
      const r = records[n]!;
      if (r.kind === 'tool_result' && r.callId !== null && !this.collector.hasCall(r.runId, r.callId)) break;
      const turn = r.kind === 'llm' ? this.turnIds.get(r) : undefined;
      if (turn !== undefined && openTurn(turn)) break;
    }
    if (n === 0) return;
    for (const record of records.splice(0, n)) {
      if (record.kind === 'llm') this.turnIds.delete(record);
      this.sink.record(record);
    }
  }

  /** The end of the export: the results still waiting, the fallback pass over `rest`, then every record not handed on. */
  finish(rest: readonly Observation[]): void {
    this.flushResults(Infinity);
    for (const o of rest) this.fallback(o);
    for (const record of this.collector.records) this.sink.record(record);
    this.collector.records.length = 0;
  }

  /** Other observations repeat the conversation; they only fill in what the primary ones lack. */
  fallback(o: Observation): void {
    if (o.type === 'GENERATION' || o.type === 'TOOL' || this.toolSpans.has(o)) return;
    const attrs = attributesOf(o.obj);
    const before = this.collector.records.length;
    this.messages(o, own(o.obj, 'input'), o.start);
    this.messages(o, own(o.obj, 'output'), o.end);
    this.messages(o, own(attrs, 'pydantic_ai.all_messages'), o.end);
    if (this.collector.records.length > before) return;
    // Read, and nothing new in it. A span that says it is a tool's but is not one
    // execution (BeeAI's start/finish/success events) is handed over for partial-read.
    const tool = saysTool(attrs);
    this.sink.skip({ line: o.line, reason: tool ? `${o.type} observation marked as a tool's, not one execution` : `${o.type} observation with nothing new`, toolLike: tool });
  }
}
