import type { CatalogTool } from '../../model/records.js';
import { idOf, isObject, own, str, type JsonObject } from './fields.js';
import { argsOf, catalogTools, resultFact, type ToolFact } from './tool-facts.js';

/**
 * Tool calls and results in one chat message or conversation item, whatever
 * the dialect: OpenAI Chat (`tool_calls[].function`, `role:"tool"` +
 * `tool_call_id`, legacy `function_call`), OpenAI Responses items
 * (`function_call` / `function_call_output` and other `*_call` items with a
 * `call_id`), Anthropic content blocks (`tool_use` / `tool_result`), OTel GenAI
 * parts (`tool_call` / `tool_call_response`), Bedrock Converse blocks (`toolUse` /
 * `toolResult`), LangChain messages (`type:"ai"`
 * with `tool_calls[{id,name,args}]`, `type:"tool"` with `status`), Vercel AI SDK
 * parts (`tool-call` / `tool-result`) and Inspect AI (`function` as a string,
 * `error{type,message}`).
 */
export interface MessageFacts {
  readonly facts: ToolFact[];
  /** Tool definitions carried as a message (Langfuse's LangChain handler appends them as `role:"tool"`). */
  readonly catalog: CatalogTool[];
}

export function messageFacts(message: unknown): MessageFacts {
  const facts: ToolFact[] = [];
  const catalog: CatalogTool[] = [];
  if (!isObject(message)) return { facts, catalog };
  const role = str(message, 'role') ?? str(message, 'type');

  const item = itemFact(message);
  if (item.length > 0) return { facts: item, catalog };

  let calls = own(message, 'tool_calls');
  if (!Array.isArray(calls) || calls.length === 0) {
    const extra = own(message, 'additional_kwargs');
    if (isObject(extra)) calls = own(extra, 'tool_calls');
  }
  if (Array.isArray(calls)) for (const call of calls) pushCall(facts, call);
  const legacy = own(message, 'function_call');
  if (isObject(legacy) && str(legacy, 'name') !== null) facts.push({ kind: 'call', callId: null, tool: str(legacy, 'name')!, args: argsOf(own(legacy, 'arguments')) });

  for (const key of ['content', 'parts']) {
    const blocks = own(message, key);
    if (Array.isArray(blocks)) for (const block of blocks) facts.push(...blockFacts(block));
  }

  if (role === 'tool' || role === 'function') {
    const callId = idOf(message, 'tool_call_id');
    const content = own(message, 'content');
    const definition = isObject(content) && str(content, 'type') === 'function' && isObject(own(content, 'function'));
    if (callId === null && definition) {
      catalog.push(...(catalogTools([content]) ?? []));
    } else if (callId !== null || role === 'function') {
      const fn = own(message, 'function');
      const tool = str(message, 'name') ?? (typeof fn === 'string' ? fn : null);
      const error = own(message, 'error');
      const errorType = isObject(error) ? str(error, 'type') : null;
      const isError = str(message, 'status') === 'error' || (error !== undefined && error !== null && error !== false);
      const shown = isObject(error) && (content === '' || content === undefined) ? own(error, 'message') : content;
      facts.push(resultFact(callId, tool, shown, isError, errorType, errorType));
    }
  }
  return { facts, catalog };
}

function pushCall(facts: ToolFact[], call: unknown): void {
  if (!isObject(call)) return;
  const fn = own(call, 'function');
  const holder = isObject(fn) ? fn : call;
  const tool = str(holder, 'name') ?? (typeof fn === 'string' ? fn : null);
  if (tool === null) return;
  const args = own(holder, 'arguments') ?? own(call, 'arguments') ?? own(call, 'args') ?? own(call, 'input');
  facts.push({ kind: 'call', callId: idOf(call, 'id') ?? idOf(call, 'call_id'), tool, args: argsOf(args) });
}

/** One content block or part. */
export function blockFacts(block: unknown): ToolFact[] {
  if (!isObject(block)) return [];
  switch (str(block, 'type')) {
    case 'tool_use':
    case 'server_tool_use': {
      const name = str(block, 'name');
      return name === null ? [] : [{ kind: 'call', callId: idOf(block, 'id'), tool: name, args: own(block, 'input') }];
    }
    case 'tool_result':
      return [resultFact(idOf(block, 'tool_use_id'), null, own(block, 'content'), own(block, 'is_error') === true)];
    case 'mcp_tool_use':
    case 'mcp_tool_result':
      // MCP connector blocks name tools of a remote server the request's catalog does not list: not read.
      return [];
    case 'tool_call': {
      const name = str(block, 'name');
      return name === null ? [] : [{ kind: 'call', callId: idOf(block, 'id'), tool: name, args: argsOf(own(block, 'arguments')) }];
    }
    case 'tool_call_response':
      return [resultFact(idOf(block, 'id'), str(block, 'name'), own(block, 'response') ?? own(block, 'result'))];
    case 'tool-call': {
      const name = str(block, 'toolName');
      return name === null ? [] : [{ kind: 'call', callId: idOf(block, 'toolCallId'), tool: name, args: argsOf(own(block, 'input') ?? own(block, 'args')) }];
    }
    case 'tool-result':
      return [resultFact(idOf(block, 'toolCallId'), str(block, 'toolName'), own(block, 'output') ?? own(block, 'result'), own(block, 'isError') === true)];
    default:
      return serverToolResult(block) ?? converseBlock(block) ?? itemFact(block);
  }
}

/** A Bedrock Converse content block (no `type`): `{toolUse: {toolUseId, name, input}}` or `{toolResult: {toolUseId, content, status}}`. */
function converseBlock(block: JsonObject): ToolFact[] | null {
  const use = own(block, 'toolUse');
  if (isObject(use) && str(use, 'name') !== null) return [{ kind: 'call', callId: idOf(use, 'toolUseId'), tool: str(use, 'name')!, args: argsOf(own(use, 'input')) }];
  const result = own(block, 'toolResult');
  if (isObject(result)) return [resultFact(idOf(result, 'toolUseId'), null, own(result, 'content'), str(result, 'status') === 'error')];
  return null;
}

/**
 * An Anthropic server tool's result block (`web_search_tool_result`,
 * `code_execution_tool_result`, `bash_code_execution_tool_result`,
 * `tool_search_tool_result` …): the answer to a `server_tool_use` of the same
 * response, by `tool_use_id`. Its content is an error when its type ends in `_error`.
 */
function serverToolResult(block: JsonObject): ToolFact[] | null {
  const type = str(block, 'type');
  const callId = idOf(block, 'tool_use_id');
  if (type === null || callId === null || !type.endsWith('_tool_result')) return null;
  const content = own(block, 'content');
  const errorType = isObject(content) ? str(content, 'type') : null;
  const isError = errorType !== null && errorType.endsWith('_error');
  return [resultFact(callId, null, content, isError, isError ? errorType : null, isError && isObject(content) ? str(content, 'error_code') : null)];
}

const FAILED = new Set(['failed', 'incomplete', 'error']);

/**
 * A Responses API item (or a Vercel tool call without a type): anything with a
 * `call_id` is a call, or a result when its type ends in `_output`.
 */
export function itemFact(item: JsonObject): ToolFact[] {
  const vercelId = idOf(item, 'toolCallId');
  const vercelName = str(item, 'toolName');
  if (vercelId !== null && vercelName !== null && own(item, 'type') === undefined) {
    return [{ kind: 'call', callId: vercelId, tool: vercelName, args: argsOf(own(item, 'input') ?? own(item, 'args')) }];
  }
  const callId = idOf(item, 'call_id');
  const type = str(item, 'type');
  if (callId === null || type === null) return [];
  const failed = FAILED.has(str(item, 'status') ?? '');
  if (type.endsWith('_output')) {
    const content = own(item, 'output') ?? own(item, 'result');
    return [resultFact(callId, null, content, failed)];
  }
  const tool = str(item, 'name') ?? type.replace(/_call$/, '');
  const args = argsOf(own(item, 'arguments') ?? own(item, 'input') ?? own(item, 'action') ?? own(item, 'code'));
  const facts: ToolFact[] = [{ kind: 'call', callId, tool, args }];
  // Hosted calls (mcp_call) carry their own outcome.
  const error = own(item, 'error');
  if (own(item, 'output') !== undefined || (error !== undefined && error !== null)) {
    facts.push(resultFact(callId, tool, own(item, 'output') ?? error, failed || (error !== undefined && error !== null)));
  }
  return facts;
}
