import { describe, expect, it } from 'vitest';
import { auditTemp, countRun, findingList } from '../corpus.js';

const msg = (ts: string, server: string, from: 'client' | 'server', value: unknown, trailer = '') => `${ts} [${server}] [info] Message from ${from}: ${JSON.stringify(value)}${trailer}`;

describe('mcp: Claude Desktop logs', () => {
  it('reads the JSON-RPC lines of each server as its own run and skips the other log lines', async () => {
    const log = [
      '2025-07-20T13:44:16.000Z [weather] [info] Initializing server...',
      msg('2025-07-20T13:44:16.395Z', 'weather', 'client', { method: 'tools/list', params: {}, jsonrpc: '2.0', id: 1 }),
      msg('2025-07-20T13:44:16.400Z', 'weather', 'server', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'get_forecast', inputSchema: { type: 'object' } }] } }, ' { metadata: undefined }'),
      msg('2025-07-20T13:44:17.000Z', 'memory', 'client', { method: 'prompts/list', params: {}, jsonrpc: '2.0', id: 1 }),
      msg('2025-07-20T13:44:17.001Z', 'memory', 'server', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }),
      msg('2025-07-20T13:44:18.000Z', 'weather', 'client', { method: 'tools/call', params: { name: 'get_forecast', arguments: { lat: 'north' } }, jsonrpc: '2.0', id: 2 }),
      msg('2025-07-20T13:44:18.250Z', 'weather', 'server', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'lat must be a number' } }, ' { metadata: undefined }'),
      msg('2025-07-20T13:44:19.000Z', 'memory', 'client', { method: 'tools/call', params: { name: 'read_graph', arguments: {} }, jsonrpc: '2.0', id: 2 }),
      '2025-07-20T13:44:20.000Z [memory] [info] Message from server: {"jsonrpc":"2.0","id":2,"result":',
      '2025-07-20T13:44:21.000Z [memory] [info] Client transport closed',
      '',
    ].join('\n');
    const { result, runs } = await auditTemp({ 'mcp.log': log });
    expect(result.files).toEqual([{ path: 'mcp.log', format: 'mcp', records: 4, runs: 2, skipped: [{ reason: 'malformed-record', count: 1, firstLine: 9 }], toolCalls: 2, toolResults: 1 }]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'weather', llm: 0, calls: 1, results: 1, errors: 1, orphans: [], unmatched: [], catalog: ['get_forecast'] },
      { runId: 'memory', llm: 0, calls: 1, results: 0, errors: 0, orphans: ['2:read_graph'], unmatched: [], catalog: [] },
    ]);
    const failed = runs[0]!.results[0]!;
    expect([failed.loc.line, failed.ts, failed.callId, failed.errorCode, failed.errorClass, failed.content]).toEqual([7, Date.parse('2025-07-20T13:44:18.250Z'), '2', '-32602', 'invalid_params', 'lat must be a number']);
    // The memory server's run never lists its tools (true).
    expect(findingList(result)).toEqual([
      ['catalog-missing', 8, 'memory', null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['orphan-call', 8, 'memory', '2', "call '2' to 'read_graph' has no result (nothing followed it in the run)"],
      ['malformed-record', 9, 'memory', null, "message from the log of 'memory' is not JSON"],
    ]);
  });
});
