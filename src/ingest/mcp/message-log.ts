import { idOf, int, isObject, own, str, type JsonObject } from '../facts/fields.js';
import { SessionStates } from '../read/session-states.js';
import type { CatalogTool } from '../../model/records.js';
import { catalogRecord, catalogTools, resultFact, toRecord, type Place, type ToolFact } from '../facts/tool-facts.js';
import type { RecordSink } from '../types.js';

const RPC_ERRORS = new Map([
  ['-32700', 'parse_error'],
  ['-32600', 'invalid_request'],
  ['-32601', 'method_not_found'],
  ['-32602', 'invalid_params'],
  ['-32603', 'internal_error'],
]);

/** A JSON-RPC message, possibly inside a logger's envelope (`message`, `payload`, `data`). */
export function rpcOf(value: unknown): JsonObject | null {
  if (!isObject(value)) return null;
  if (own(value, 'jsonrpc') === '2.0') return value;
  for (const key of ['message', 'payload', 'data']) {
    const inner = own(value, key);
    if (isObject(inner) && own(inner, 'jsonrpc') === '2.0') return inner;
  }
  return null;
}

/** MCP results and errors logged without their JSON-RPC envelope. */
export function bareShape(value: unknown): 'call-result' | 'tool-list' | 'error' | null {
  if (!isObject(value) || own(value, 'role') !== undefined) return null;
  if (Array.isArray(own(value, 'content')) && (typeof own(value, 'isError') === 'boolean' || own(value, 'structuredContent') !== undefined)) return 'call-result';
  const tools = own(value, 'tools');
  if (Array.isArray(tools) && tools.length > 0 && tools.every((t) => isObject(t) && own(t, 'inputSchema') !== undefined)) return 'tool-list';
  const code = int(value, 'code');
  if (code !== null && code <= -32000 && code >= -32768 && typeof own(value, 'message') === 'string' && Object.keys(value).length <= 3) return 'error';
  return null;
}

/** One connection's state: requests awaiting their response, uses of each id, tool per call id, the last catalog. */
interface Connection {
  /** The run id of this connection (the log's, or `<log's> #n` for the n-th `initialize` of a log). */
  readonly runId: string | null;
  readonly pending: Map<string, { method: string; callId: string; tool: string | null }>;
  readonly uses: Map<string, number>;
  readonly tools: Map<string, string>;
  catalog: string | null;
  /** Messages read in this connection (an `initialize` after the first starts the next one). */
  messages: number;
}

/**
 * Reads MCP messages one at a time and sends their records as they come (streamed):
 * `tools/list` results are the catalog, `tools/call` requests calls paired with their
 * response by JSON-RPC id (an id reused after its response gets a `#n` suffix),
 * `result.isError` and JSON-RPC errors error results. A log (a file, or one server of
 * a Desktop log) is one run per connection: an `initialize` request after other
 * messages starts the next connection (JSON-RPC ids start over), as run `<log> #n`.
 * State is per connection, released when it ends or has been idle for
 * limits.run-idle-records messages.
 */
export class McpMessageLog {
  private readonly connections: SessionStates<Connection>;
  /** Connections started per log (key: the log's run id, '' for none). */
  private readonly started = new Map<string, number>();
  /** The connection in use per log. */
  private readonly current = new Map<string, string | null>();

  constructor(
    private readonly file: string,
    private readonly sink: RecordSink,
    idleRecords: number,
  ) {
    this.connections = new SessionStates<Connection>(
      idleRecords,
      (runId) => ({ runId, pending: new Map(), uses: new Map(), tools: new Map(), catalog: null, messages: 0 }),
      sink,
    );
  }

  /** One message; `log` names the server when a log mixes several (JSON-RPC ids are per connection). False when it is not MCP. */
  read(value: unknown, line: number, log: string | null = null, ts: number | null = null): boolean {
    this.connections.tick();
    const rpc = rpcOf(value);
    if (!rpc && bareShape(value) === null) return false;
    const method = rpc === null ? null : str(rpc, 'method');
    let conn = this.connections.get(this.connectionOf(log));
    if (method === 'initialize' && conn.messages > 0) {
      this.connections.end(conn.runId);
      const n = (this.started.get(log ?? '') ?? 1) + 1;
      this.started.set(log ?? '', n);
      const runId = `${log ?? 'connection'} #${n}`;
      this.current.set(log ?? '', runId);
      conn = this.connections.get(runId);
    }
    conn.messages += 1;
    const place: Place = { loc: { file: this.file, line }, runId: conn.runId, ts };
    if (!rpc) return this.bare(conn, value as JsonObject, place);
    const rawId = idOf(rpc, 'id');
    if (method !== null) {
      if (method === 'tools/call') {
        const params = own(rpc, 'params');
        const tool = isObject(params) ? str(params, 'name') : null;
        const callId = rawId === null ? null : callIdFor(conn, rawId, tool);
        this.fact(conn, { kind: 'call', callId, tool: tool ?? 'unknown', args: isObject(params) ? own(params, 'arguments') : undefined }, place);
      } else if (rawId !== null) conn.pending.set(rawId, { method, callId: rawId, tool: null });
      return true;
    }
    const request = rawId === null ? undefined : conn.pending.get(rawId);
    if (rawId !== null) conn.pending.delete(rawId);
    const result = own(rpc, 'result');
    const error = own(rpc, 'error');
    if (isObject(result) && (request?.method === 'tools/list' || (!request && Array.isArray(own(result, 'tools'))))) {
      const tools = catalogTools(own(result, 'tools'));
      if (tools) this.catalog(conn, tools, place);
    } else if (request ? request.method === 'tools/call' : isObject(error) || (isObject(result) && Array.isArray(own(result, 'content')))) {
      const callId = request?.callId ?? rawId;
      this.fact(conn, isObject(error) ? errorFact(error, callId, request?.tool ?? null) : callResult(result, callId, request?.tool ?? null), place);
    }
    return true;
  }

  private connectionOf(log: string | null): string | null {
    const key = log ?? '';
    return this.current.has(key) ? this.current.get(key)! : log;
  }

  private bare(conn: Connection, obj: JsonObject, place: Place): boolean {
    const shape = bareShape(obj);
    if (shape === 'tool-list') this.catalog(conn, catalogTools(own(obj, 'tools')) ?? [], place);
    else this.fact(conn, shape === 'error' ? errorFact(obj, null, null) : callResult(obj, null, null), place);
    return true;
  }

  /** A call or result; a result that does not name its tool is named by its call's. */
  private fact(conn: Connection, given: ToolFact, place: Place): void {
    let fact = given;
    if (fact.callId !== null) {
      if (fact.kind === 'call' && !conn.tools.has(fact.callId)) conn.tools.set(fact.callId, fact.tool);
      if (fact.kind === 'result' && fact.tool === null && conn.tools.has(fact.callId)) fact = { ...fact, tool: conn.tools.get(fact.callId)! };
    }
    this.sink.record(toRecord(fact, place));
  }

  /** A catalog; the same names and schemas again in the same connection are not repeated. */
  private catalog(conn: Connection, tools: readonly CatalogTool[], place: Place): void {
    if (tools.length === 0) return;
    const key = JSON.stringify(tools.map((t) => [t.name, t.schema ?? null]));
    if (conn.catalog === key) return;
    conn.catalog = key;
    this.sink.record(catalogRecord(tools, place));
  }
}

function callIdFor(conn: Connection, rawId: string, tool: string | null): string {
  const open = conn.pending.get(rawId);
  if (open) return open.callId; // reused while outstanding: a real duplicate
  const n = (conn.uses.get(rawId) ?? 0) + 1;
  conn.uses.set(rawId, n);
  const callId = n === 1 ? rawId : `${rawId}#${n}`;
  conn.pending.set(rawId, { method: 'tools/call', callId, tool });
  return callId;
}

function callResult(result: unknown, callId: string | null, tool: string | null) {
  const obj = isObject(result) ? result : {};
  return resultFact(callId, tool, own(obj, 'content') ?? own(obj, 'structuredContent'), own(obj, 'isError') === true);
}

function errorFact(error: JsonObject, callId: string | null, tool: string | null) {
  const code = idOf(error, 'code');
  return resultFact(callId, tool, own(error, 'message'), true, code === null ? null : (RPC_ERRORS.get(code) ?? 'rpc_error'), code);
}
