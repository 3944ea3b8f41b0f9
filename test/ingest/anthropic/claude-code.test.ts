import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../helpers.js';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'claude-code';

describeCorpus('claude-code: corpus transcripts', corpusFilesUnder(dir), () => {
  it('reads the well-formed transcripts with every call answered', async () => {
    const names = ['claude-code-log-representative', 'claude-code-log-todowrite', 'simonw-sample-session'];
    const { result, runs } = await auditCorpus(names.map((n) => `${dir}/${n}.jsonl`));
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['claude-code', 1, 9],
      ['claude-code', 1, 12],
      ['claude-code', 1, 7],
    ]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'test_session', llm: 5, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: 'todowrite_session', llm: 6, calls: 3, results: 3, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: 'test-session-id', llm: 3, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: [] },
    ]);
    // Session transcripts do not record the tools offered: catalog-missing notes are true.
    expect(findingList(result)).toEqual([
      ['catalog-missing', 4, 'test_session', null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
      ['missing-final-newline', 12, null, null, 'last record has no final newline'],
      ['catalog-missing', 3, 'todowrite_session', null, 'run has 3 tool calls but no catalog record: nothing to check the tool names against'],
      ['missing-final-newline', 12, null, null, 'last record has no final newline'],
      ['catalog-missing', 3, 'test-session-id', null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
    ]);
    expect(runs[2]!.calls.map((c) => [c.loc.line, c.callId, c.tool])).toEqual([
      [3, 'toolu_001', 'Write'],
      [5, 'toolu_002', 'Bash'],
    ]);
    expect(runs[2]!.results.map((r) => [r.loc.line, r.callId, r.tool, r.isError])).toEqual([
      [4, 'toolu_001', 'Write', false],
      [6, 'toolu_002', 'Bash', false],
    ]);
  });

  it('reports each broken line of the edge-case transcript and the calls they leave unanswered', async () => {
    const { result, runs } = await auditCorpus([`${dir}/claude-code-log-edge-cases.jsonl`]);
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([['claude-code', 2, 8]]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'edge_cases', llm: 3, calls: 2, results: 1, errors: 1, orphans: ['tool_edge_002:MultiEdit'], unmatched: [], catalog: [] },
      { runId: 'todowrite_session', llm: 1, calls: 1, results: 0, errors: 0, orphans: ['toolu_todowrite_002:TodoWrite'], unmatched: [], catalog: [] },
    ]);
    // No catalog in either session (true); line 5's FailingTool error is plain text with no code (true).
    expect(findingList(result)).toEqual([
      ['catalog-missing', 4, 'edge_cases', null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
      ['unstructured-error', 5, 'edge_cases', 'tool_edge_001', `error result of 'FailingTool' has no machine-readable code (body: "Error: Tool execution failed with error: Command not found")`],
      ['orphan-call', 9, 'edge_cases', 'tool_edge_002', "call 'tool_edge_002' to 'MultiEdit' has no result (nothing followed it in the run)"],
      ['malformed-record', 10, 'edge_cases', null, 'message has no "content" list (its toolUseResult cannot be matched to a call)'],
      ['malformed-record', 11, 'edge_cases', null, '"message" is a JSON string, not an object'],
      ['malformed-record', 13, null, null, 'record is a JSON string, not an object'],
      ['malformed-record', 14, null, null, 'record has no "type"'],
      ['malformed-record', 15, null, null, 'record is a JSON number, not an object'],
      ['malformed-record', 16, null, null, 'record is a JSON array, not an object'],
      ['catalog-missing', 17, 'todowrite_session', null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['orphan-call', 17, 'todowrite_session', 'toolu_todowrite_002', "call 'toolu_todowrite_002' to 'TodoWrite' has no result (nothing followed it in the run)"],
      ['malformed-record', 18, 'edge_cases', null, 'content item 0 is a JSON string, not a block'],
      ['missing-final-newline', 19, null, null, 'last record has no final newline'],
    ]);
    const failed = runs[0]!.results[0]!;
    expect([failed.loc.line, failed.callId, failed.isError, failed.content]).toEqual([5, 'tool_edge_001', true, 'Error: Tool execution failed with error: Command not found']);
  });
});

describe('claude-code: hand-made shapes', () => {
  it('reads Agent SDK stream-json: init tools as the catalog, a rejected call, and a denial with no tool_result', async () => {
    const s = 'sess-1';
    const stream = jsonl(
        { type: 'system', subtype: 'init', session_id: s, tools: ['Bash', 'Read', 'constructor'] },
        { type: 'assistant', session_id: s, message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf build' } }] } },
        { type: 'user', session_id: s, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: "The user doesn't want to proceed with this tool use." }] } },
        { type: 'assistant', session_id: s, message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Write', input: {} }] } },
        { type: 'result', subtype: 'success', session_id: s, permission_denials: [{ tool_name: 'Bash', tool_use_id: 't1', tool_input: {} }, { tool_name: 'Write', tool_use_id: 't2', tool_input: {} }] },
    );
    const result = await auditFiles({ 'stream.jsonl': stream });
    expect(result.files).toEqual([{ path: 'stream.jsonl', format: 'claude-code', records: 7, runs: 1, skipped: [], toolCalls: 2, toolResults: 2 }]);
    // The catalog hash is recomputed from the init tools: sha256 of ["Bash","Read","constructor"].
    expect(result.runs).toEqual([{ file: 'stream.jsonl', runId: s, format: 'claude-code', catalogSha256: 'ea7b022efe58f2faf6dea5d4245852fefafc1ffa64e957dca5eb96a3d268f5ee', toolCalls: 2, toolResults: 2 }]);
    // True on this stream: 'Write' is not among the init tools, 'Read' and 'constructor' are never called.
    expect(result.findings.map((f) => [f.ruleId, f.line, f.callId, f.tool, f.message])).toEqual([
      ['unused-tool', 1, null, 'Read', "tool 'Read' is in the catalog but the run never called it (2 calls to other tools)"],
      ['unused-tool', 1, null, 'constructor', "tool 'constructor' is in the catalog but the run never called it (2 calls to other tools)"],
      ['unknown-tool', 4, 't2', 'Write', "tool 'Write' is not in the run's catalog ('Bash', 'Read', 'constructor'): no catalog hash is recorded to tell a wrong catalog from an invented name"],
    ]);
    const { runs } = await auditTemp({ 'stream.jsonl': stream });
    expect(runs.map(countRun)).toEqual([{ runId: s, llm: 2, calls: 2, results: 2, errors: 2, orphans: [], unmatched: [], catalog: ['Bash', 'Read', 'constructor'] }]);
    expect(runs[0]!.results.map((r) => [r.loc.line, r.callId, r.errorClass])).toEqual([
      [3, 't1', 'permission_denied'],
      [5, 't2', 'permission_denied'],
    ]);
  });

  it('classes a rejected tool use as permission_denied', async () => {
    const { result, runs } = await auditTemp({
      's.jsonl': jsonl(
        { type: 'assistant', sessionId: 'a', message: { id: 'm', content: [{ type: 'tool_use', id: 't', name: 'Edit', input: {} }] } },
        { type: 'user', sessionId: 'a', toolUseResult: 'User rejected tool use', message: { content: [{ type: 'tool_result', tool_use_id: 't', is_error: true, content: 'rejected' }] } },
        { type: 'assistant', sessionId: 'a', message: { id: 'm2', content: [{ type: 'tool_use', id: 'u', name: 'Edit', input: {} }] } },
      ),
    });
    expect(runs[0]!.results.map((r) => [r.loc.line, r.isError, r.errorClass, r.errorCode])).toEqual([[2, true, 'permission_denied', 'permission_denied']]);
    expect(findingsOf(result, 'orphan-call')).toEqual([{ line: 3, callId: 'u', tool: 'Edit', runId: 'a', message: "call 'u' to 'Edit' has no result (nothing followed it in the run)" }]);
  });
});
