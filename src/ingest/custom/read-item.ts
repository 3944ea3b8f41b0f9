import type { CatalogTool, SourceLocation, TraceRecord } from '../../model/records.js';
import { argsOf, catalogRecord, resultFact, toRecord } from '../facts/tool-facts.js';
import type { CompiledCondition, CompiledMapping } from './compile.js';
import { textOf, timeOf, toolNameProblem } from './values.js';
import type { MappingTally } from './mapping-check.js';
import { recordLocation, selectFirst, selectNodes, type Node, type RecordQueries } from './walk.js';
import type { JsonPath } from '../read/json-locate.js';

/** True when the condition holds for the node (see mapping.ts). */
export function holds(condition: CompiledCondition, node: Node, q: RecordQueries): boolean {
  for (const hit of selectNodes(condition.path, node, q)) {
    const v = hit.value;
    if (condition.equals === null ? v !== null && v !== false : condition.equals.some((e) => e === v)) return true;
  }
  return false;
}

/** One thing a record yielded, with where it is: the parser orders and emits them. */
export interface Found {
  /** Where in the record it is (the line is found from it in a document). */
  readonly location: JsonPath;
  /** 0 catalog, 1 call, 2 result: the order of things found at the same place. */
  readonly rank: number;
  readonly make: (loc: SourceLocation, runOf: (run: string | null) => string | null) => TraceRecord;
}

/** A selected item the mapping could not read (a call without a tool name): skipped, as tool-like. */
export interface Unread {
  readonly location: JsonPath;
  readonly reason: string;
  readonly value: unknown;
}

/** What one record gave. */
export interface RecordRead {
  readonly found: Found[];
  readonly unread: Unread[];
}

/**
 * Everything the mapping finds in one record (a JSONL line, or a document): the
 * catalog, calls and results, or what it selected and could not read; counted in
 * `tally` for the mapping's own check (mapping-check.ts).
 */
export function readRecord(m: CompiledMapping, q: RecordQueries, tally: MappingTally): RecordRead {
  const out: RecordRead = { found: [], unread: [] };
  const top = q.top;
  const runOfRecord = textOf(selectFirst(m.runId, top, q));
  if (m.tools) readCatalog(m.tools, q, runOfRecord, out);
  if (m.calls) readCalls(m.calls, q, runOfRecord, tally, out);
  if (m.results) readResults(m.results, q, runOfRecord, tally, out);
  tally.record(out.found.some((f) => f.rank > 0) || out.unread.length > 0);
  return out;
}

function readCatalog(tools: NonNullable<CompiledMapping['tools']>, q: RecordQueries, runOfRecord: string | null, out: RecordRead): void {
  const byRun = new Map<string | null, CatalogTool[]>();
  const where = new Map<string | null, JsonPath>();
  for (const node of selectNodes(tools.select, q.top, q)) {
    const name = textOf(selectFirst(tools.name, node, q));
    if (name === null || toolNameProblem(name) !== null) continue;
    const schema = selectFirst(tools.schema, node, q);
    const run = textOf(selectFirst(tools.runId, node, q)) ?? runOfRecord;
    const list = byRun.get(run) ?? [];
    list.push(schema === undefined ? { name, schemaSha256: null } : { name, schema: argsOf(schema), schemaSha256: null });
    byRun.set(run, list);
    if (!where.has(run)) where.set(run, recordLocation(node));
  }
  for (const [run, list] of byRun) out.found.push({ location: where.get(run)!, rank: 0, make: (loc, runOf) => catalogRecord(list, { loc, runId: runOf(run), ts: null }) });
}

function readCalls(calls: NonNullable<CompiledMapping['calls']>, q: RecordQueries, runOfRecord: string | null, tally: MappingTally, out: RecordRead): void {
  for (const node of selectNodes(calls.select, q.top, q)) {
    tally.calls.selected += 1;
    if (calls.when && !holds(calls.when, node, q)) continue;
    tally.calls.kept += 1;
    const location = recordLocation(node);
    const raw = selectFirst(calls.tool, node, q);
    const tool = textOf(raw);
    const problem = tool === null ? null : toolNameProblem(tool);
    if (tool === null || problem !== null) {
      tally.calls.unnamed += 1;
      const reason = problem === null ? `a call without a tool name at calls.tool (${calls.tool.text})` : `a call whose calls.tool (${calls.tool.text}) is ${problem}`;
      out.unread.push({ location, reason, value: node.value });
      continue;
    }
    const callId = textOf(selectFirst(calls.id, node, q));
    tally.callId(callId);
    const args = argsOf(selectFirst(calls.arguments, node, q));
    const runId = textOf(selectFirst(calls.runId, node, q)) ?? runOfRecord;
    const ts = timeOf(selectFirst(calls.timestamp, node, q));
    out.found.push({ location, rank: 1, make: (loc, runOf) => toRecord({ kind: 'call', callId, tool: tool!, args }, { loc, runId: runOf(runId), ts }) });
  }
}

function readResults(results: NonNullable<CompiledMapping['results']>, q: RecordQueries, runOfRecord: string | null, tally: MappingTally, out: RecordRead): void {
  for (const node of selectNodes(results.select, q.top, q)) {
    tally.results.selected += 1;
    if (results.when && !holds(results.when, node, q)) continue;
    tally.results.kept += 1;
    const location = recordLocation(node);
    const rawTool = textOf(selectFirst(results.tool, node, q));
    const problem = rawTool === null ? null : toolNameProblem(rawTool);
    if (problem !== null) {
      tally.results.unnamed += 1;
      out.unread.push({ location, reason: `a result whose results.tool (${results.tool!.text}) is ${problem}`, value: node.value });
      continue;
    }
    const callId = textOf(selectFirst(results.id, node, q));
    tally.resultId(callId);
    const content = selectFirst(results.output, node, q);
    const isError = results.error ? holds(results.error, node, q) : false;
    const runId = textOf(selectFirst(results.runId, node, q)) ?? runOfRecord;
    const ts = timeOf(selectFirst(results.timestamp, node, q));
    out.found.push({ location, rank: 2, make: (loc, runOf) => toRecord(resultFact(callId, rawTool, content, isError), { loc, runId: runOf(runId), ts }) });
  }
}
