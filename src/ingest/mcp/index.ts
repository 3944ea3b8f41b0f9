import { idOf, int, isObject, own, str, type JsonObject } from '../fields.js';
import { forEachJsonLine } from '../json-lines.js';
import { catalogTools, FactCollector, resultFact, type Place } from '../tool-facts.js';
import { Evidence, type DetectSample, type ParseInput, type TraceFormat } from '../types.js';
import { headBytes, largeDocumentHead, streamDocument } from '../whole-document.js';
import { forEachDesktopMessage, looksLikeDesktopLog } from './desktop-log.js';

const RPC_ERRORS = new Map([
  ['-32700', 'parse_error'],
  ['-32600', 'invalid_request'],
  ['-32601', 'method_not_found'],
  ['-32602', 'invalid_params'],
  ['-32603', 'internal_error'],
]);

/** A JSON-RPC message, possibly inside a logger's envelope (`message`, `payload`, `data`). */
function rpcOf(value: unknown): JsonObject | null {
  if (!isObject(value)) return null;
  if (own(value, 'jsonrpc') === '2.0') return value;
  for (const key of ['message', 'payload', 'data']) {
    const inner = own(value, key);
    if (isObject(inner) && own(inner, 'jsonrpc') === '2.0') return inner;
  }
  return null;
}

/** MCP results and errors logged without their JSON-RPC envelope. */
function bareShape(value: unknown): 'call-result' | 'tool-list' | 'error' | null {
  if (!isObject(value) || own(value, 'role') !== undefined) return null;
  if (Array.isArray(own(value, 'content')) && (typeof own(value, 'isError') === 'boolean' || own(value, 'structuredContent') !== undefined)) return 'call-result';
  const tools = own(value, 'tools');
  if (Array.isArray(tools) && tools.length > 0 && tools.every((t) => isObject(t) && own(t, 'inputSchema') !== undefined)) return 'tool-list';
  const code = int(value, 'code');
  if (code !== null && code <= -32000 && code >= -32768 && typeof own(value, 'message') === 'string' && Object.keys(value).length <= 3) return 'error';
  return null;
}

const fits = (value: unknown) => rpcOf(value) !== null || bareShape(value) !== null;

/**
 * MCP JSON-RPC message logs (JSONL, a JSON list, or one message), and bare MCP
 * results: `tools/list` results are the catalog (with `inputSchema`),
 * `tools/call` requests are calls paired with their response by JSON-RPC id
 * (an id reused after its response gets a `#n` suffix), `result.isError` and
 * JSON-RPC errors (such as -32602 invalid params) are error results. One run per file.
 */
function looksLikeMcp(sample: DetectSample): boolean {
  if (looksLikeDesktopLog(sample.head)) return true;
  const head = largeDocumentHead(sample);
  if (head !== null) return /^\[\s*\{\s*"jsonrpc"\s*:\s*"2\.0"/.test(head);
  const doc = sample.document;
  if (doc !== undefined) return Array.isArray(doc) ? doc.length > 0 && doc.every(fits) : fits(doc);
  return sample.jsonLines.length > 0 && sample.jsonLines.some((value) => rpcOf(value) !== null);
}

export const mcpFormat: TraceFormat = {
  id: 'mcp',
  description: 'MCP JSON-RPC message logs (tools/list, tools/call) and bare MCP results',
  detect(sample: DetectSample): number {
    // `"jsonrpc": "2.0"` messages are the protocol's own marker.
    return looksLikeMcp(sample) ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    const log = new McpLog(input.file);
    if (looksLikeDesktopLog(await headBytes(input, 256 * 1024))) {
      await forEachDesktopMessage(input, sink, (m) => {
        if (!log.read(m.value, m.line, m.server, m.ts)) sink.diagnostic({ ruleId: 'malformed-record', line: m.line, runId: m.server, message: 'message is not JSON-RPC' });
      });
      for (const record of log.collector.records) sink.record(record);
      return;
    }
    if (!(await isDocument(input))) {
      await forEachJsonLine(input, sink, (value, line) => {
        if (!log.read(value, line)) sink.diagnostic({ ruleId: 'malformed-record', line, message: 'line is not a JSON-RPC message' });
      });
    } else {
      // One document: a list of messages is streamed, one message at a time.
      const read = await streamDocument(input, sink, { lists: ['$[*]'] }, ({ value, line, index }) => {
        if (!log.read(value, line)) sink.diagnostic({ ruleId: 'malformed-record', line, message: `item ${index} is not a JSON-RPC message` });
      });
      if (read && !Array.isArray(read.rest) && !log.read(read.rest, 1)) sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'document is not a JSON-RPC message' });
    }
    for (const record of log.collector.records) sink.record(record);
  },
};

/**
 * One JSON document (a message, or a list of them) rather than JSON lines: the
 * first non-blank line is the only one, or is not JSON on its own and opens a
 * list or an object (a pretty-printed document starts with a line like "[").
 */
async function isDocument(input: ParseInput): Promise<boolean> {
  let seen = false;
  for await (const event of input.lines()) {
    if (event.type === 'line' && event.text.trim() === '') continue;
    // A second line after a first one that is JSON (or too long to read as a line): JSON lines.
    if (seen) return false;
    seen = true;
    if (event.type === 'bad-line') continue;
    try {
      JSON.parse(event.text);
    } catch {
      return event.text.trimStart().startsWith('[') || event.text.trimStart().startsWith('{');
    }
  }
  return true;
}

class McpLog {
  readonly collector = new FactCollector(false);
  private readonly pending = new Map<string, { method: string; callId: string; tool: string | null }>();
  private readonly uses = new Map<string, number>();

  constructor(private readonly file: string) {}

  /** One message; `runId` names the server when a log mixes several (JSON-RPC ids are per connection). */
  read(value: unknown, line: number, runId: string | null = null, ts: number | null = null): boolean {
    const place: Place = { loc: { file: this.file, line }, runId, ts };
    const rpc = rpcOf(value);
    if (!rpc) return this.bare(value, place);
    const rawId = idOf(rpc, 'id');
    const id = rawId === null ? null : `${runId ?? ''}\u0000${rawId}`;
    const method = str(rpc, 'method');
    if (method !== null) {
      if (method === 'tools/call') {
        const params = own(rpc, 'params');
        const tool = isObject(params) ? str(params, 'name') : null;
        const callId = id === null || rawId === null ? null : this.callIdFor(id, rawId, tool);
        this.collector.fact({ kind: 'call', callId, tool: tool ?? 'unknown', args: isObject(params) ? own(params, 'arguments') : undefined }, place);
      } else if (id !== null && rawId !== null) this.pending.set(id, { method, callId: rawId, tool: null });
      return true;
    }
    const request = id === null ? undefined : this.pending.get(id);
    if (id !== null) this.pending.delete(id);
    const result = own(rpc, 'result');
    const error = own(rpc, 'error');
    if (isObject(result) && (request?.method === 'tools/list' || (!request && Array.isArray(own(result, 'tools'))))) {
      const tools = catalogTools(own(result, 'tools'));
      if (tools) this.collector.catalog(tools, place);
    } else if (request ? request.method === 'tools/call' : isObject(error) || (isObject(result) && Array.isArray(own(result, 'content')))) {
      const callId = request?.callId ?? rawId;
      this.collector.fact(isObject(error) ? errorFact(error, callId, request?.tool ?? null) : callResult(result, callId, request?.tool ?? null), place);
    }
    return true;
  }

  private callIdFor(id: string, rawId: string, tool: string | null): string {
    const open = this.pending.get(id);
    if (open) return open.callId; // reused while outstanding: a real duplicate
    const n = (this.uses.get(id) ?? 0) + 1;
    this.uses.set(id, n);
    const callId = n === 1 ? rawId : `${rawId}#${n}`;
    this.pending.set(id, { method: 'tools/call', callId, tool });
    return callId;
  }

  private bare(value: unknown, place: Place): boolean {
    const shape = bareShape(value);
    if (shape === null) return false;
    const obj = value as JsonObject;
    if (shape === 'tool-list') this.collector.catalog(catalogTools(own(obj, 'tools')) ?? [], place);
    else this.collector.fact(shape === 'error' ? errorFact(obj, null, null) : callResult(obj, null, null), place);
    return true;
  }
}

function callResult(result: unknown, callId: string | null, tool: string | null) {
  const obj = isObject(result) ? result : {};
  return resultFact(callId, tool, own(obj, 'content') ?? own(obj, 'structuredContent'), own(obj, 'isError') === true);
}

function errorFact(error: JsonObject, callId: string | null, tool: string | null) {
  const code = idOf(error, 'code');
  return resultFact(callId, tool, own(error, 'message'), true, code === null ? null : (RPC_ERRORS.get(code) ?? 'rpc_error'), code);
}
