import type { CatalogTool } from '../../model/records.js';
import { isObject, own } from '../facts/fields.js';
import type { OtelSpan } from './span.js';

/** A tool call a model span asked for (its output) or carried in its history (its input). */
export interface CallFact {
  readonly id: string | null;
  readonly name: string;
  readonly args: unknown;
}

/** A tool result a model span carried in its input messages. */
export interface ResultFact {
  readonly id: string | null;
  readonly name: string | null;
  readonly content: unknown;
  readonly isError: boolean;
}

/** What a tool-execution span says about its call; the first mapper to know a field sets it. */
export interface ToolFacts {
  id: string | null;
  name: string | null;
  args: unknown;
  result: unknown;
  /** The result itself says it failed (MCP `isError`, an `error` member). */
  resultIsError: boolean;
}

/** Everything the attribute mappers found on one span. */
export interface SpanFacts {
  model: boolean;
  tool: ToolFacts | null;
  catalog: CatalogTool[] | null;
  readonly outputCalls: CallFact[];
  readonly historyCalls: CallFact[];
  readonly historyResults: ResultFact[];
}

export type AttributeMapper = (span: OtelSpan, facts: SpanFacts) => void;

export function emptyFacts(): SpanFacts {
  return { model: false, tool: null, catalog: null, outputCalls: [], historyCalls: [], historyResults: [] };
}

/** The span's tool facts, created on first use. */
export function toolFacts(facts: SpanFacts): ToolFacts {
  facts.tool ??= { id: null, name: null, args: undefined, result: undefined, resultIsError: false };
  return facts.tool;
}

/** Sets the catalog unless a mapper with richer data already did. */
export function setCatalog(facts: SpanFacts, tools: CatalogTool[]): void {
  if (tools.length > 0 && (facts.catalog === null || facts.catalog.length < tools.length)) facts.catalog = tools;
}

/**
 * A tool definition in any of the shapes the conventions use:
 * `{name, parameters}`, `{type:'function', function:{name, parameters}}`,
 * `{name, inputSchema | input_schema | parameters_json_schema}`.
 */
export function catalogTool(value: unknown): CatalogTool | null {
  if (!isObject(value)) return null;
  const fn = own(value, 'function');
  const def = isObject(fn) ? fn : value;
  const name = own(def, 'name');
  if (typeof name !== 'string' || name === '') return null;
  const schema = own(def, 'parameters') ?? own(def, 'inputSchema') ?? own(def, 'input_schema') ?? own(def, 'parameters_json_schema');
  return schema === undefined ? { name, schemaSha256: null } : { name, schema, schemaSha256: null };
}

export function catalogFrom(list: unknown): CatalogTool[] {
  const out: CatalogTool[] = [];
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    const tool = catalogTool(item);
    if (tool) out.push(tool);
  }
  return out;
}

/** A call id from a string or numeric field. */
export function idText(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Does a result payload say it failed (MCP `isError: true`, `is_error`, or an `error` member)? */
export function payloadIsError(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (own(value, 'isError') === true || own(value, 'is_error') === true) return true;
  const error = own(value, 'error');
  return error !== undefined && error !== null && error !== false && error !== '';
}

/** What indexedGroups gives for a prefix no key has (shared: most spans have none). */
const NO_GROUPS: ReadonlyArray<[number, Map<string, unknown>]> = Object.freeze([]);

/**
 * Groups flattened indexed attributes: for prefix `gen_ai.prompt.`, the key
 * `gen_ai.prompt.2.tool_calls.0.id` lands in group 2 under `tool_calls.0.id`.
 * One pass over the span's keys; groups come back in index order.
 */
export function indexedGroups(attrs: ReadonlyMap<string, unknown>, prefix: string): ReadonlyArray<[number, Map<string, unknown>]> {
  // Most spans have no key of a given prefix: then nothing is allocated (keys alone are
  // walked; an entries walk makes a [key, value] pair per key).
  let groups: Map<number, Map<string, unknown>> | null = null;
  for (const key of attrs.keys()) {
    if (!key.startsWith(prefix)) continue;
    const dot = key.indexOf('.', prefix.length);
    if (dot === -1) continue;
    const index = Number(key.slice(prefix.length, dot));
    if (!Number.isInteger(index) || index < 0) continue;
    groups ??= new Map();
    let group = groups.get(index);
    if (!group) groups.set(index, (group = new Map()));
    group.set(key.slice(dot + 1), attrs.get(key));
  }
  return groups === null ? NO_GROUPS : [...groups.entries()].sort((a, b) => a[0] - b[0]);
}
