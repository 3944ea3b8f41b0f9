import { describe, expect, it } from 'vitest';
import { jsonl } from '../../helpers.js';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'gemini-cli';

// Counts read with python3: llm = messages of type "gemini"; calls = their toolCalls;
// every toolCall carries its result inline; errors = status "error".
describeCorpus('gemini-cli: corpus sessions', corpusFilesUnder(dir), () => {
  it('reads the JSON session and the JSONL session (not taken for Claude Code)', async () => {
    const { result, runs } = await auditCorpus([`${dir}/agent-history-golden.json`, `${dir}/agent-history-tool-error.jsonl`]);
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['gemini-cli', 1, 4],
      ['gemini-cli', 1, 13],
    ]);
    // Counted with python3: the messages whose type is not "gemini" (user prompts), and the line of the first.
    expect(result.files.map((f) => f.skipped)).toEqual([[{ reason: 'message type "user"', count: 2, firstLine: 7 }], [{ reason: 'message type "user"', count: 4, firstLine: 2 }]]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'golden-gemini-001', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: 'rejection-gemini-001', llm: 5, calls: 4, results: 4, errors: 1, orphans: [], unmatched: [], catalog: [] },
    ]);
    expect(runs[1]!.calls.map((c) => [c.loc.line, c.callId, c.tool])).toEqual([
      [3, 'edit_file-001', 'edit_file'],
      [5, 'edit_file-002', 'edit_file'],
      [7, 'read_file-001', 'read_file'],
      [8, 'edit_file-003', 'edit_file'],
    ]);
    expect(runs[1]!.results[1]).toMatchObject({ callId: 'edit_file-002', isError: true, content: { error: 'Failed to edit, 0 occurrences found for old_string' } });
    expect(runs[0]!.results[0]).toMatchObject({ loc: { line: 13 }, callId: 'read_file-001', content: { output: '{"name": "test-project", "version": "1.0.0"}' } });
    expect(findingList(result)).toEqual([
      ['catalog-missing', 13, 'golden-gemini-001', null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['catalog-missing', 3, 'rejection-gemini-001', null, 'run has 4 tool calls but no catalog record: nothing to check the tool names against'],
      ['unstructured-error', 5, 'rejection-gemini-001', 'edit_file-002', `error result of 'edit_file' has no machine-readable code (body: "Failed to edit, 0 occurrences found for old_string")`],
    ]);
  });
});

describe('gemini-cli: the JSONL log', () => {
  const header = { sessionId: 's1', projectHash: 'a'.repeat(64), startTime: '2026-06-20T05:31:30.160Z', lastUpdated: '2026-06-20T05:31:30.160Z', kind: 'main' };
  const call = (id: string, status: string, result?: unknown) => ({ id, name: 'run_shell_command', args: { command: 'ls' }, status, ...(result === undefined ? {} : { result: [{ functionResponse: { id, name: 'run_shell_command', response: result } }] }) });
  const gemini = (id: string, toolCalls: unknown[]) => ({ id, timestamp: '2026-06-20T05:31:31.000Z', type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls });

  it('a message appended again when its calls finish, and a $set listing it once more, are read once each', async () => {
    const file = jsonl(
      header,
      { id: 'u1', timestamp: '2026-06-20T05:31:30.500Z', type: 'user', content: [{ text: 'list files' }] },
      gemini('g1', [call('t1', 'executing'), call('t2', 'awaiting_approval')]),
      gemini('g1', [call('t1', 'success', { output: 'a.txt' }), call('t2', 'cancelled', { error: '[Operation Cancelled] Reason: User cancelled the operation.' })]),
      { $set: { lastUpdated: '2026-06-20T05:31:40.000Z', messages: [gemini('g1', [call('t1', 'success', { output: 'a.txt' })])] } },
      { $rewindTo: 'u1' },
      gemini('g2', [call('t3', 'executing')]),
    );
    const { result, runs } = await auditTemp({ 'session-2026-06-20T05-31-s1.jsonl': file });
    expect(result.files).toEqual([{ path: 'session-2026-06-20T05-31-s1.jsonl', format: 'gemini-cli', records: 7, runs: 1, skipped: [
      { reason: '"$rewindTo" record without messages', count: 1, firstLine: 6 },
      { reason: 'message type "user"', count: 1, firstLine: 2 },
    ], toolCalls: 3, toolResults: 2 }]);
    expect(runs[0]!.results.map((r) => [r.loc.line, r.callId, r.isError, r.errorClass])).toEqual([
      [4, 't1', false, null],
      [4, 't2', true, 'cancelled'],
    ]);
    // t3 was still running when the log ends: an orphan, said where it was called.
    expect(countRun(runs[0]!)).toMatchObject({ runId: 's1', llm: 2, calls: 3, results: 2, orphans: ['t3:run_shell_command'] });
    expect(findingList(result).filter(([rule]) => rule === 'malformed-record')).toEqual([]);
  });
});
