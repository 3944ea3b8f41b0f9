import type { CatalogTool, SourceLocation, TraceRecord } from '../../model/records.js';
import { toMillis } from '../facts/fields.js';
import { argsOf, catalogRecord, resultFact, toRecord } from '../facts/tool-facts.js';
import type { Condition, FormatMapping } from './mapping.js';
import { selectAll, selectFirst, selectorOf, type Hit, type Selector } from './query.js';

/** A mapping's queries, compiled once per thread. */
export interface CompiledMapping {
  readonly runId?: Selector;
  readonly calls?: {
    readonly select: Selector;
    readonly when?: CompiledCondition;
    readonly id?: Selector;
    readonly tool: Selector;
    readonly arguments?: Selector;
    readonly runId?: Selector;
    readonly timestamp?: Selector;
  };
  readonly results?: {
    readonly select: Selector;
    readonly when?: CompiledCondition;
    readonly id?: Selector;
    readonly tool?: Selector;
    readonly output?: Selector;
    readonly error?: CompiledCondition;
    readonly runId?: Selector;
    readonly timestamp?: Selector;
  };
  readonly tools?: { readonly select: Selector; readonly name: Selector; readonly schema?: Selector; readonly runId?: Selector };
}

export interface CompiledCondition {
  readonly path: Selector;
  /** The values one of which a selected node must equal; null: any node not null or false. */
  readonly equals: ReadonlyArray<string | number | boolean | null> | null;
}

const opt = (text: string | undefined): Selector | undefined => (text === undefined ? undefined : selectorOf(text));
const optCondition = (c: Condition | undefined): CompiledCondition | undefined => (c === undefined ? undefined : compileCondition(c));

export function compileCondition(c: Condition): CompiledCondition {
  if (typeof c === 'string') return { path: selectorOf(c), equals: null };
  const equals = c.equals === undefined ? null : Array.isArray(c.equals) ? c.equals : [c.equals];
  return { path: selectorOf(c.path), equals };
}

/** Undefined keys are left out: the compiled mapping is read with `?.` and `!== undefined` only. */
export function compileMapping(m: FormatMapping): CompiledMapping {
  const c = m.calls;
  const r = m.results;
  const t = m.tools;
  return {
    runId: opt(m['run-id']),
    calls: c && { select: selectorOf(c.select), when: optCondition(c.when), id: opt(c.id), tool: selectorOf(c.tool), arguments: opt(c.arguments), runId: opt(c['run-id']), timestamp: opt(c.timestamp) },
    results: r && { select: selectorOf(r.select), when: optCondition(r.when), id: opt(r.id), tool: opt(r.tool), output: opt(r.output), error: optCondition(r.error), runId: opt(r['run-id']), timestamp: opt(r.timestamp) },
    tools: t && { select: selectorOf(t.select), name: selectorOf(t.name), schema: opt(t.schema), runId: opt(t['run-id']) },
  } as CompiledMapping;
}

/** True when the condition holds for `value` (see mapping.ts). */
export function holds(condition: CompiledCondition, value: unknown): boolean {
  for (const hit of selectAll(condition.path, value)) {
    const v = hit.value;
    if (condition.equals === null ? v !== null && v !== false : condition.equals.some((e) => e === v)) return true;
  }
  return false;
}

/** An id or a name: a non-empty string, or a finite number written as text. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Epoch milliseconds from ISO text or a number of seconds, ms, µs or ns (told apart by size). */
export function timeOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isFinite(n)) {
    if (n >= 1e17) return n / 1e6;
    if (n >= 1e14) return n / 1e3;
  }
  return toMillis(n);
}

/** One thing a record yielded, with where it is: the parser orders and emits them. */
export interface Found {
  /** Where in the record it is (the line is found from it in a document). */
  readonly location: Hit['location'];
  /** 0 catalog, 1 call, 2 result: the order of things found at the same place. */
  readonly rank: number;
  readonly make: (loc: SourceLocation) => TraceRecord;
}

/** A selected item the mapping could not read (a call without a tool name): skipped, as tool-like. */
export interface Unread {
  readonly location: Hit['location'];
  readonly reason: string;
  readonly value: unknown;
}

/**
 * Everything the mapping finds in one record (a JSONL line, or the document):
 * the catalog, calls and results, or what it selected and could not read.
 */
export function readRecord(m: CompiledMapping, record: unknown, found: Found[], unread: Unread[]): void {
  const runOfRecord = textOf(selectFirst(m.runId, record));
  if (m.tools) {
    const byRun = new Map<string | null, CatalogTool[]>();
    const where = new Map<string | null, Hit['location']>();
    for (const hit of selectAll(m.tools.select, record)) {
      const name = textOf(selectFirst(m.tools.name, hit.value));
      if (name === null) continue;
      const schema = selectFirst(m.tools.schema, hit.value);
      const run = textOf(selectFirst(m.tools.runId, hit.value)) ?? runOfRecord;
      const list = byRun.get(run) ?? [];
      list.push(schema === undefined ? { name, schemaSha256: null } : { name, schema: argsOf(schema), schemaSha256: null });
      byRun.set(run, list);
      if (!where.has(run)) where.set(run, hit.location);
    }
    for (const [run, tools] of byRun) found.push({ location: where.get(run)!, rank: 0, make: (loc) => catalogRecord(tools, { loc, runId: run, ts: null }) });
  }
  const calls = m.calls;
  if (calls) {
    for (const hit of selectAll(calls.select, record)) {
      const item = hit.value;
      if (calls.when && !holds(calls.when, item)) continue;
      const tool = textOf(selectFirst(calls.tool, item));
      if (tool === null) {
        unread.push({ location: hit.location, reason: `a call without a tool name at calls.tool (${calls.tool.text})`, value: item });
        continue;
      }
      const callId = textOf(selectFirst(calls.id, item));
      const args = argsOf(selectFirst(calls.arguments, item));
      const runId = textOf(selectFirst(calls.runId, item)) ?? runOfRecord;
      const ts = timeOf(selectFirst(calls.timestamp, item));
      found.push({ location: hit.location, rank: 1, make: (loc) => toRecord({ kind: 'call', callId, tool, args }, { loc, runId, ts }) });
    }
  }
  const results = m.results;
  if (results) {
    for (const hit of selectAll(results.select, record)) {
      const item = hit.value;
      if (results.when && !holds(results.when, item)) continue;
      const callId = textOf(selectFirst(results.id, item));
      const tool = textOf(selectFirst(results.tool, item));
      const content = selectFirst(results.output, item);
      const isError = results.error ? holds(results.error, item) : false;
      const runId = textOf(selectFirst(results.runId, item)) ?? runOfRecord;
      const ts = timeOf(selectFirst(results.timestamp, item));
      found.push({ location: hit.location, rank: 2, make: (loc) => toRecord(resultFact(callId, tool, content, isError), { loc, runId, ts }) });
    }
  }
}
