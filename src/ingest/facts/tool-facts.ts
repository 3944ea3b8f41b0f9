import type { CatalogRecord, CatalogTool, LlmSpan, SourceLocation, ToolCall, ToolResult, TraceRecord } from '../../model/records.js';
import { ByRun, ToolNames } from '../read/by-run.js';
import { isObject, own, str } from './fields.js';

/**
 * What framework formats say about tools, before it becomes records: a call
 * (the model asked for a tool) or a result (what came back). The format
 * readers produce facts; `FactCollector` turns them into normalized records.
 */
export interface CallFact {
  readonly kind: 'call';
  readonly callId: string | null;
  readonly tool: string;
  readonly args: unknown;
}

export interface ResultFact {
  readonly kind: 'result';
  readonly callId: string | null;
  readonly tool: string | null;
  readonly content: unknown;
  readonly isError: boolean;
  readonly errorClass: string | null;
  readonly errorCode: string | null;
}

export type ToolFact = CallFact | ResultFact;

/** Where and when a fact was recorded, and the run it belongs to. */
export interface Place {
  readonly loc: SourceLocation;
  readonly runId: string | null;
  readonly ts: number | null;
  readonly spanId?: string | null;
}

export function resultFact(callId: string | null, tool: string | null, content: unknown, isError = false, errorClass: string | null = null, errorCode: string | null = null): ResultFact {
  return { kind: 'result', callId, tool, content, isError, errorClass, errorCode };
}

/** Arguments recorded as a JSON string (OpenAI, GenAI attributes) become the parsed value; anything else stays as it is. */
export function argsOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const text = raw.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return raw;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return raw;
  }
}

// The records are written out field by field (the same keys in the same order as a
// spread of the common fields gave): one literal shape each, no spread per record.

export function toRecord(fact: ToolFact, place: Place): ToolCall | ToolResult {
  const { loc, runId, ts } = place;
  const spanId = place.spanId ?? null;
  if (fact.kind === 'call') {
    return { kind: 'tool_call', loc, runId, ts, spanId, catalogSha256: null, callId: fact.callId, tool: fact.tool, args: fact.args, argsHash: null, deadlineMs: null, index: null };
  }
  return {
    kind: 'tool_result',
    loc,
    runId,
    ts,
    spanId,
    catalogSha256: null,
    callId: fact.callId,
    tool: fact.tool,
    content: fact.content,
    isError: fact.isError,
    errorClass: fact.errorClass,
    errorCode: fact.errorCode,
    httpStatus: null,
    exitCode: null,
    index: null,
  };
}

export function llmRecord(place: Place, endTs: number | null = null): LlmSpan {
  return { kind: 'llm', loc: place.loc, runId: place.runId, ts: place.ts, spanId: place.spanId ?? null, catalogSha256: null, endTs, message: true };
}

export function catalogRecord(tools: readonly CatalogTool[], place: Place): CatalogRecord {
  const names = tools.map((t) => t.name);
  return { kind: 'catalog', loc: place.loc, runId: place.runId, ts: place.ts, spanId: place.spanId ?? null, catalogSha256: null, tools, names, recordedSha256: null, perRequest: true };
}

const CODE_EXECUTION_SUBTOOLS = ['bash_code_execution', 'text_editor_code_execution'];

/**
 * Tool definitions in the shapes frameworks record them: OpenAI Chat
 * `{type:"function", function:{name, parameters}}`, Responses/Vercel
 * `{name, parameters|inputSchema}`, Anthropic `{name, input_schema}`, Bedrock Converse
 * `{toolSpec: {name, inputSchema: {json}}}`, MCP
 * `{name, inputSchema}`, pydantic-ai `{name, parameters_json_schema}`, Anthropic
 * server tools `{type: "web_search_20250305", name}` (code execution from
 * `code_execution_20250825` on stands for the `bash_code_execution` and
 * `text_editor_code_execution` it calls), bare names, and any of these as a JSON string. Null when `defs` is not a list.
 */
export function catalogTools(defs: unknown): CatalogTool[] | null {
  const list = argsOf(defs);
  if (!Array.isArray(list)) return null;
  const out: CatalogTool[] = [];
  for (const item of list) {
    const def = argsOf(item);
    if (typeof def === 'string') {
      out.push({ name: def, schemaSha256: null });
      continue;
    }
    if (!isObject(def)) continue;
    const fn = own(def, 'function') ?? own(def, 'toolSpec');
    const holder = isObject(fn) ? fn : def;
    const name = str(holder, 'name');
    if (name === null) continue;
    let schema = ['parameters', 'input_schema', 'inputSchema', 'parameters_json_schema', 'json_schema'].map((key) => own(holder, key)).find((v) => v !== undefined);
    // Bedrock Converse wraps the schema: `toolSpec.inputSchema.json`.
    if (holder !== def && own(def, 'toolSpec') === holder && isObject(schema) && own(schema, 'json') !== undefined) schema = own(schema, 'json');
    // Anthropic's code execution server tool from code_execution_20250825 on is called through two sub-tools.
    const version = /^code_execution_(\d{8})$/.exec(str(def, 'type') ?? '')?.[1];
    if (version !== undefined && version >= '20250825') {
      for (const sub of CODE_EXECUTION_SUBTOOLS) out.push({ name: sub, schemaSha256: null });
      continue;
    }
    out.push(schema === undefined ? { name, schemaSha256: null } : { name, schema: argsOf(schema), schemaSha256: null });
  }
  return out;
}

/**
 * Collects one document's records. With `dedupe`, a call or result whose call
 * id was already seen is dropped: formats that repeat a conversation in every
 * request (Langfuse observations, recorded API requests) list each call many times.
 */
export class FactCollector {
  readonly records: TraceRecord[] = [];
  private readonly calls = new ByRun<true>();
  private readonly results = new ByRun<true>();
  private readonly catalogs = new Map<string, string>();
  /** Tool name per call id, to name results that do not say which tool answered (by-run.ts). */
  private readonly tools = new ToolNames();

  constructor(private readonly dedupe: boolean) {}

  fact(given: ToolFact, place: Place): boolean {
    let fact = given;
    const callId = fact.callId;
    if (callId !== null) {
      if (fact.kind === 'call') this.tools.call(place.runId, callId, fact.tool);
      else {
        const tool = this.tools.result(place.runId, callId);
        if (fact.tool === null && tool !== undefined) fact = { ...fact, tool };
      }
    }
    if (this.dedupe && callId !== null) {
      const seen = fact.kind === 'call' ? this.calls : this.results;
      if (!seen.setFirst(place.runId, callId, true)) return false;
      if (fact.kind === 'call' && this.results.get(place.runId, callId) !== undefined) {
        // Found after its result (a later, fuller copy of the conversation): keep the call first.
        const at = this.records.findIndex((r) => r.kind === 'tool_result' && r.callId === fact.callId && r.runId === place.runId);
        if (at !== -1) {
          this.records.splice(at, 0, toRecord(fact, place));
          return true;
        }
      }
    }
    this.records.push(toRecord(fact, place));
    return true;
  }

  hasCall(runId: string | null, callId: string): boolean {
    return this.calls.get(runId, callId) !== undefined;
  }

  llm(place: Place, endTs: number | null = null): LlmSpan {
    const record = llmRecord(place, endTs);
    this.records.push(record);
    return record;
  }

  /**
   * A catalog for the run; the same names and schemas again in the same run are not repeated.
   * With `before`, it goes right before that record (the tools of a request found after its llm record).
   */
  catalog(tools: readonly CatalogTool[], place: Place, before?: TraceRecord): void {
    if (tools.length === 0) return;
    const key = JSON.stringify(tools.map((t) => [t.name, t.schema ?? null]));
    const run = place.runId ?? '';
    if (this.catalogs.get(run) === key) return;
    this.catalogs.set(run, key);
    const at = before === undefined ? -1 : this.records.lastIndexOf(before);
    if (at === -1) this.records.push(catalogRecord(tools, place));
    else this.records.splice(at, 0, catalogRecord(tools, place));
  }
}
