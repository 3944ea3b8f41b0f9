import { describe, expect, it } from 'vitest';
import { blockFacts } from '../../src/ingest/facts/message-facts.js';
import { catalogTools } from '../../src/ingest/facts/tool-facts.js';

describe('Anthropic server tool blocks', () => {
  it('a *_tool_result block answers its server_tool_use by tool_use_id; an *_error content is an error with its code', () => {
    expect(blockFacts({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } })).toEqual([
      { kind: 'call', callId: 'srvtoolu_1', tool: 'web_search', args: { query: 'q' } },
    ]);
    expect(blockFacts({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.com' }] })).toEqual([
      { kind: 'result', callId: 'srvtoolu_1', tool: null, content: [{ type: 'web_search_result', url: 'https://example.com' }], isError: false, errorClass: null, errorCode: null },
    ]);
    const failed = { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'tool_search_tool_result_error', error_code: 'unavailable' } };
    expect(blockFacts(failed)).toEqual([
      { kind: 'result', callId: 'srvtoolu_2', tool: null, content: failed.content, isError: true, errorClass: 'tool_search_tool_result_error', errorCode: 'unavailable' },
    ]);
    // MCP connector blocks name tools of a remote server, not of the request's catalog: not read.
    expect(blockFacts({ type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'x', server_name: 's', input: {} })).toEqual([]);
    expect(blockFacts({ type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', content: [] })).toEqual([]);
  });

  it('code_execution_20250825 in a catalog stands for the two sub-tools it calls; older versions keep their name', () => {
    expect(catalogTools([{ type: 'code_execution_20250825', name: 'code_execution' }, { type: 'web_search_20250305', name: 'web_search' }])?.map((t) => t.name)).toEqual([
      'bash_code_execution', 'text_editor_code_execution', 'web_search',
    ]);
    expect(catalogTools([{ type: 'code_execution_20250522', name: 'code_execution' }])?.map((t) => t.name)).toEqual(['code_execution']);
  });
});
