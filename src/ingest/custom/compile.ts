import type { Condition, FormatMapping } from './mapping.js';
import { selectorOf, type Selector } from './query.js';

/** A mapping's queries, compiled once per thread. */
export interface CompiledMapping {
  readonly runId?: Selector;
  /** `runs: per-record`: each record is its own run (mapping.ts). */
  readonly perRecord: boolean;
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
    perRecord: m.runs === 'per-record',
    calls: c && { select: selectorOf(c.select), when: optCondition(c.when), id: opt(c.id), tool: selectorOf(c.tool), arguments: opt(c.arguments), runId: opt(c['run-id']), timestamp: opt(c.timestamp) },
    results: r && { select: selectorOf(r.select), when: optCondition(r.when), id: opt(r.id), tool: opt(r.tool), output: opt(r.output), error: optCondition(r.error), runId: opt(r['run-id']), timestamp: opt(r.timestamp) },
    tools: t && { select: selectorOf(t.select), name: selectorOf(t.name), schema: opt(t.schema), runId: opt(t['run-id']) },
  } as CompiledMapping;
}
