import { describe, expect, it } from 'vitest';
import { jsonl } from '../../helpers.js';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'mcp';

describeCorpus('mcp: corpus examples (one message per file)', corpusFilesUnder(dir), () => {
  it('reads each example on its own: the request has no response in its file, the responses no request', async () => {
    const names = ['call-tool-request', 'call-tool-result-response', 'invalid-tool-arguments', 'invalid-tool-input-error', 'list-tools-result-response'];
    const { result, runs } = await auditCorpus(names.map((n) => `${dir}/${n}.json`));
    expect(result.files.map((f) => [f.format, f.records, f.runs])).toEqual(names.map(() => ['mcp', 1, 1]));
    expect(runs.map(countRun)).toEqual([
      { runId: null, llm: 0, calls: 1, results: 0, errors: 0, orphans: ['call-tool-example:get_weather'], unmatched: [], catalog: [] },
      { runId: null, llm: 0, calls: 0, results: 1, errors: 0, orphans: [], unmatched: ['call-tool-example:-'], catalog: [] },
      { runId: null, llm: 0, calls: 0, results: 1, errors: 1, orphans: [], unmatched: ['-:-'], catalog: [] },
      { runId: null, llm: 0, calls: 0, results: 1, errors: 1, orphans: [], unmatched: ['-:-'], catalog: [] },
      { runId: null, llm: 0, calls: 0, results: 0, errors: 0, orphans: [], unmatched: [], catalog: ['get_weather'] },
    ]);
    expect(runs[2]!.results.map((r) => [r.errorCode, r.errorClass, r.content])).toEqual([['-32602', 'invalid_params', "Invalid arguments for tool calculate: Missing required property 'expression'"]]);
    expect(runs[4]!.catalogs[0]!.tools[0]!.schema).toEqual({ type: 'object', properties: { location: { type: 'string', description: 'City name or zip code' } }, required: ['location'] });
    // Each file is its own run: the request's run has no tools/list (catalog-missing), the
    // isError result is plain text (unstructured-error), and the list's run calls nothing (unused-tool). All true.
    expect(findingList(result)).toEqual([
      ['catalog-missing', 1, null, null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['orphan-call', 1, null, 'call-tool-example', "call 'call-tool-example' to 'get_weather' has no result (nothing followed it in the run)"],
      ['unmatched-result', 1, null, 'call-tool-example', "result for call id 'call-tool-example' has no matching call in this run"],
      ['unmatched-result', 1, null, null, 'result without a call id has no matching call in this run'],
      ['unmatched-result', 1, null, null, 'result without a call id has no matching call in this run'],
      ['unstructured-error', 1, null, null, 'error result of a tool has no machine-readable code (body: "Invalid departure date: must be in the future. Current date is 08/08/2025.")'],
      // list-tools-result-response.json lists a tool and calls none: true.
      ['ingest-note', 0, null, null, "the file holds no tool calls ('mcp': no tool call or result read, and no tool-shaped content)"],
      ['unused-tool', 1, null, null, "tool 'get_weather' is in the catalog but the run never called it (no calls at all)"],
    ]);
  });
});

describe('mcp: hand-made message log', () => {
  it('pairs tools/call by JSON-RPC id, reads -32602 and isError as errors, and tells reused ids apart', async () => {
    const log = jsonl(
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: {} } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }, { name: 'constructor', inputSchema: { type: 'object' } }] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_wether', arguments: {} } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Unknown tool: get_wether' } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'x' } } },
      { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'no such place' }], isError: true } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Oslo' } } },
      { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'late' }] } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Bergen' } } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'rain' }], isError: false } },
    );
    const { result, runs } = await auditTemp({ 'mcp.jsonl': log });
    expect(result.files).toEqual([{ path: 'mcp.jsonl', format: 'mcp', records: 9, runs: 1, skipped: [], toolCalls: 4, toolResults: 4 }]);
    expect(runs.map(countRun)).toEqual([{ runId: null, llm: 0, calls: 4, results: 4, errors: 2, orphans: ['4:get_weather'], unmatched: ['9:-'], catalog: ['constructor', 'get_weather'] }]);
    expect(runs[0]!.results.map((r) => [r.loc.line, r.callId, r.tool, r.isError, r.errorCode])).toEqual([
      [6, '2', 'get_wether', true, '-32602'],
      [8, '3', 'get_weather', true, null],
      [10, '9', null, false, null],
      [12, '2#2', 'get_weather', false, null],
    ]);
    // True on this log: 'constructor' is listed but never called; 'get_wether' is not listed and
    // never succeeds (the agent went on with 'get_weather'); call 3's isError result is plain text.
    expect(findingList(result)).toEqual([
      ['unused-tool', 4, null, null, "tool 'constructor' is in the catalog but the run never called it (4 calls to other tools)"],
      ['unknown-tool', 5, null, '2', "tool 'get_wether' is not in the run's catalog ('constructor', 'get_weather'): no catalog hash is recorded to tell a wrong catalog from an invented name"],
      ['slow-recovery', 6, null, '2', "'get_wether' never succeeded after this error: the run ended 3 calls later (threshold 2)"],
      ['unstructured-error', 8, null, '3', `error result of 'get_weather' has no machine-readable code (body: "no such place")`],
      ['unmatched-result', 10, null, '9', "result for call id '9' has no matching call in this run"],
      ['orphan-call', 11, null, '4', "call '4' to 'get_weather' has no result (the run went on without it, with no llm span after it)"],
    ]);
  });
});
