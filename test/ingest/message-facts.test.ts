import { describe, expect, it } from 'vitest';
import { messageFacts } from '../../src/ingest/facts/message-facts.js';
import { argsOf, catalogTools } from '../../src/ingest/facts/tool-facts.js';

const call = (callId: string | null, tool: string, args: unknown) => ({ kind: 'call', callId, tool, args });
const result = (callId: string | null, tool: string | null, content: unknown, isError = false, code: string | null = null) => ({ kind: 'result', callId, tool, content, isError, errorClass: code, errorCode: code });

describe('messageFacts', () => {
  it('reads OpenAI Chat calls (arguments as a JSON string), tool messages and legacy function calls', () => {
    expect(messageFacts({ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }).facts).toEqual([call('c1', 'f', { a: 1 })]);
    expect(messageFacts({ role: 'assistant', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }).facts).toEqual([call('c2', 'f', '{"a":')]);
    expect(messageFacts({ role: 'tool', tool_call_id: 'c1', content: 'ok' }).facts).toEqual([result('c1', null, 'ok')]);
    expect(messageFacts({ role: 'assistant', function_call: { name: 'g', arguments: '{}' } }).facts).toEqual([call(null, 'g', {})]);
    expect(messageFacts({ role: 'function', name: 'g', content: 'done' }).facts).toEqual([result(null, 'g', 'done')]);
  });

  it('reads Anthropic blocks, GenAI parts, Vercel parts and LangChain messages', () => {
    expect(messageFacts({ role: 'assistant', content: [{ type: 'text', text: 'x' }, { type: 'tool_use', id: 't', name: 'h', input: { q: 1 } }] }).facts).toEqual([call('t', 'h', { q: 1 })]);
    expect(messageFacts({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', is_error: true, content: 'boom' }] }).facts).toEqual([result('t', null, 'boom', true)]);
    expect(messageFacts({ role: 'assistant', parts: [{ type: 'tool_call', id: 'p', name: 'k', arguments: '{"z":2}' }] }).facts).toEqual([call('p', 'k', { z: 2 })]);
    expect(messageFacts({ role: 'tool', parts: [{ type: 'tool_call_response', id: 'p', result: 'r' }] }).facts).toEqual([result('p', null, 'r')]);
    expect(messageFacts({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'v', toolName: 'w', input: { a: 1 } }] }).facts).toEqual([call('v', 'w', { a: 1 })]);
    expect(messageFacts({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'v', toolName: 'w', output: 'o', isError: true }] }).facts).toEqual([result('v', 'w', 'o', true)]);
    expect(messageFacts({ type: 'ai', tool_calls: [{ id: 'l', name: 'm', args: { b: 2 } }], additional_kwargs: { tool_calls: [{ id: 'l', function: { name: 'm', arguments: '{}' } }] } }).facts).toEqual([call('l', 'm', { b: 2 })]);
    expect(messageFacts({ type: 'tool', tool_call_id: 'l', name: 'm', content: 'bad', status: 'error' }).facts).toEqual([result('l', 'm', 'bad', true)]);
  });

  it('reads Inspect tool errors and Responses items, and takes tool definitions sent as tool messages as a catalog', () => {
    expect(messageFacts({ role: 'tool', tool_call_id: 'i', function: 'bash', content: '', error: { type: 'timeout', message: 'timed out' } }).facts).toEqual([result('i', 'bash', 'timed out', true, 'timeout')]);
    expect(messageFacts({ type: 'function_call', call_id: 'r', name: 'n', arguments: '{}' }).facts).toEqual([call('r', 'n', {})]);
    expect(messageFacts({ type: 'function_call_output', call_id: 'r', output: 'x' }).facts).toEqual([result('r', null, 'x')]);
    expect(messageFacts({ type: 'mcp_call', call_id: 'm', name: 'q', arguments: '{}', error: 'denied' }).facts).toEqual([call('m', 'q', {}), result('m', 'q', 'denied', true)]);
    const def = messageFacts({ role: 'tool', content: { type: 'function', function: { name: 'Web-Search', parameters: { type: 'object' } } } });
    expect(def).toEqual({ facts: [], catalog: [{ name: 'Web-Search', schema: { type: 'object' }, schemaSha256: null }] });
  });

  it('ignores what is not a message and tool names that are prototype keys stay plain data', () => {
    expect(messageFacts('text').facts).toEqual([]);
    expect(messageFacts({ role: 'assistant', tool_calls: [{ id: 'x', function: { name: '__proto__', arguments: '{}' } }] }).facts).toEqual([call('x', '__proto__', {})]);
  });
});

describe('catalogTools and argsOf', () => {
  it('read every catalog shape, JSON strings included', () => {
    expect(catalogTools(['a', '{"name":"b","inputSchema":{"type":"object"}}', { name: 'c', input_schema: {} }, { name: 'd', parameters_json_schema: {} }, { type: 'function', function: { name: 'e' } }, 7])).toEqual([
      { name: 'a', schemaSha256: null },
      { name: 'b', schema: { type: 'object' }, schemaSha256: null },
      { name: 'c', schema: {}, schemaSha256: null },
      { name: 'd', schema: {}, schemaSha256: null },
      { name: 'e', schemaSha256: null },
    ]);
    expect(catalogTools({ name: 'x' })).toBeNull();
    expect([argsOf('{"a":1}'), argsOf('plain'), argsOf(' [1] '), argsOf(3)]).toEqual([{ a: 1 }, 'plain', [1], 3]);
  });
});
