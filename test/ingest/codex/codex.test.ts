import { describe, expect, it } from 'vitest';
import { jsonl } from '../../helpers.js';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'codex';
const meta = (id: string) => ({ timestamp: '2026-01-06T00:00:00.000Z', type: 'session_meta', payload: { id, cwd: '/repo', cli_version: '0.77.0' } });
const item = (payload: object, second = 1) => ({ timestamp: `2026-01-06T00:00:${String(second).padStart(2, '0')}.000Z`, type: 'response_item', payload });

// Counts read from the files with python3 (json per line; llm = each run of reasoning /
// assistant message / *_call items; calls = function_call items; results = *_output items).
describeCorpus('codex-rollout: corpus rollouts', corpusFilesUnder(dir), () => {
  it('reads the three rollouts: a turn aborted and a call never answered are orphans', async () => {
    const names = ['agent-history-compaction', 'agent-history-escalation', 'agent-history-golden'];
    const { result, runs } = await auditCorpus(names.map((n) => `${dir}/${n}.jsonl`));
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['codex-rollout', 1, 10],
      ['codex-rollout', 1, 13],
      ['codex-rollout', 1, 4],
    ]);
    // Skipped lines counted with python3: every line that is not session_meta, a response_item or a turn_aborted event, by type.
    expect(result.files.map((f) => f.skipped)).toEqual([
      [{ reason: 'compacted line', count: 1, firstLine: 13 }, { reason: 'event_msg "token_count"', count: 1, firstLine: 20 }, { reason: 'turn_context line', count: 1, firstLine: 2 }],
      [{ reason: 'event_msg "token_count"', count: 1, firstLine: 21 }, { reason: 'turn_context line', count: 1, firstLine: 2 }],
      [{ reason: 'event_msg "token_count"', count: 1, firstLine: 10 }, { reason: 'turn_context line', count: 1, firstLine: 2 }],
    ]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'compact-codex-001', llm: 6, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: 'rejection-codex-001', llm: 7, calls: 4, results: 2, errors: 0, orphans: ['call_esc_002:shell', 'call_esc_004:shell'], unmatched: [], catalog: [] },
      { runId: 'golden-codex-001', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
    ]);
    expect(runs[1]!.calls.map((c) => [c.loc.line, c.callId, c.tool])).toEqual([
      [6, 'call_esc_001', 'shell'],
      [11, 'call_esc_002', 'shell'],
      [15, 'call_esc_003', 'shell'],
      [19, 'call_esc_004', 'shell'],
    ]);
    expect(runs[1]!.results.map((r) => [r.loc.line, r.callId, r.tool, r.content])).toEqual([
      [7, 'call_esc_001', 'shell', ''],
      [16, 'call_esc_003', 'shell', 'Hello World'],
    ]);
    expect(runs[1]!.calls[1]!.args).toEqual({
      command: "printf 'Goodbye World\n' > test.txt",
      sandbox_permissions: 'require_escalated',
      justification: 'Need to write to test.txt but current sandbox is read-only; require escalated permissions to modify file content.',
    });
    // Rollouts do not record the tools offered: catalog-missing is true of every run.
    expect(findingList(result)).toEqual([
      ['catalog-missing', 6, 'compact-codex-001', null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
      ['catalog-missing', 6, 'rejection-codex-001', null, 'run has 4 tool calls but no catalog record: nothing to check the tool names against'],
      ['continued-while-outstanding', 11, 'rejection-codex-001', 'call_esc_002', "the model produced 4 llm span(s) while call 'call_esc_002' to 'shell' was outstanding (first at line 13) and no result ever arrived"],
      ['orphan-call', 11, 'rejection-codex-001', 'call_esc_002', "call 'call_esc_002' to 'shell' has no result (the model kept generating afterwards)"],
      ['orphan-call', 19, 'rejection-codex-001', 'call_esc_004', "call 'call_esc_004' to 'shell' has no result (nothing followed it in the run)"],
      ['ingest-note', 20, 'rejection-codex-001', null, "turn aborted (user_cancelled) with 2 call(s) still unanswered: 'call_esc_002', 'call_esc_004'"],
      ['catalog-missing', 6, 'golden-codex-001', null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
    ]);
  });
});

describe('codex-rollout: shapes of other Codex versions', () => {
  it('reads custom tool calls, exit codes in JSON and text outputs, and an "aborted" placeholder as no result', async () => {
    const file = jsonl(
      meta('s1'),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] }, 1),
      item({ type: 'reasoning', summary: [], content: null, encrypted_content: 'x' }, 2),
      item({ type: 'custom_tool_call', status: 'completed', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' }, 3),
      item({ type: 'custom_tool_call_output', call_id: 'c1', output: 'Success. Updated the following files:\nM a.ts' }, 4),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["false"]}', call_id: 'c2' }, 5),
      item({ type: 'function_call_output', call_id: 'c2', output: '{"output":"","metadata":{"exit_code":1,"duration_seconds":0.1}}' }, 6),
      item({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls /nope"}', call_id: 'c3' }, 7),
      item({ type: 'function_call_output', call_id: 'c3', output: 'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nls: /nope: No such file' }, 8),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["sleep","99"]}', call_id: 'c4' }, 9),
      item({ type: 'function_call_output', call_id: 'c4', output: 'aborted' }, 10),
      { timestamp: '2026-01-06T00:00:11.000Z', type: 'event_msg', payload: { type: 'turn_aborted', reason: 'interrupted' } },
    );
    const { result, runs } = await auditTemp({ 'rollout-2026-01-06T00-00-00-s1.jsonl': file });
    expect(result.files).toEqual([{ path: 'rollout-2026-01-06T00-00-00-s1.jsonl', format: 'codex-rollout', records: 11, runs: 1, skipped: [], toolCalls: 4, toolResults: 3 }]);
    expect(runs[0]!.results.map((r) => [r.callId, r.tool, r.isError, r.exitCode])).toEqual([
      ['c1', 'apply_patch', false, null],
      ['c2', 'shell', true, 1],
      ['c3', 'exec_command', true, 2],
    ]);
    expect(countRun(runs[0]!)).toMatchObject({ llm: 4, calls: 4, results: 3, orphans: ['c4:shell'] });
    expect(findingList(result).filter(([rule]) => rule === 'ingest-note' || rule === 'orphan-call')).toEqual([
      ['orphan-call', 10, 's1', 'c4', "call 'c4' to 'shell' has no result (nothing followed it in the run)"],
      ['ingest-note', 11, 's1', 'c4', `Codex recorded "aborted" in place of the output of call 'c4': the tool did not run, so it counts as a call without a result`],
      ['ingest-note', 12, 's1', null, "turn aborted (interrupted) with 1 call(s) still unanswered: 'c4'"],
    ]);
  });

  it('a line that is not a rollout record is one malformed-record (a record of a type added later is counted as skipped), and the rest is read', async () => {
    const { result, runs } = await auditTemp({
      'r.jsonl': jsonl(
        meta('s2'),
        { prompt: 'x', completion: 'y' },
        { timestamp: '2026-01-06T00:00:01.000Z', type: 'a_type_of_a_later_version', payload: {} },
        item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'k' }),
        item({ type: 'function_call_output', call_id: 'k', output: 'ok' }),
        item({ type: 'ghost_snapshot', ghost_commit: { id: 'g' } }),
        { timestamp: '2026-01-06T00:00:02.000Z', type: 'later_tool_line', payload: { type: 'function_call', name: 'shell', call_id: 'z' } },
      ),
    });
    expect(result.files[0]!.skipped).toEqual([
      { reason: 'line type "a_type_of_a_later_version"', count: 1, firstLine: 3 },
      { reason: 'line type "later_tool_line"', count: 1, firstLine: 7 },
      { reason: 'malformed-record', count: 1, firstLine: 2 },
      { reason: 'response item "ghost_snapshot" (neither a call nor an output)', count: 1, firstLine: 6 },
    ]);
    expect(findingList(result).filter(([rule]) => rule === 'partial-read').map(([, line, , , message]) => [line, message])).toEqual([
      [7, "1 skipped record(s) look like tool calls or results ('codex-rollout' does not read them; first at line 7)"],
    ]);
    expect(findingList(result).filter(([rule]) => rule === 'malformed-record')).toEqual([
      ['malformed-record', 2, 's2', null, 'line is not a rollout record ({timestamp, type, payload}): "{"prompt":"x","completion":"y"}"'],
    ]);
    expect(countRun(runs[0]!)).toMatchObject({ calls: 1, results: 1, orphans: [] });
  });
});

describe('codex-rollout: what counts as "the tool did not run"', () => {
  it('only Codex placeholders, not output that happens to start with the word', async () => {
    const pair = (id: string, output: string, second: number) => [
      item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: id }, second),
      item({ type: 'function_call_output', call_id: id, output }, second + 1),
    ];
    const file = jsonl(meta('s3'), ...pair('a', 'exec command rejected by user', 1), ...pair('b', 'patch rejected by user: not in scope', 3), ...pair('c', 'aborted.txt\nbuild.log', 5), ...pair('d', 'Aborted.', 7));
    const { result, runs } = await auditTemp({ 'r.jsonl': file });
    expect(runs[0]!.results.map((r) => r.callId)).toEqual(['c']);
    expect(countRun(runs[0]!).orphans).toEqual(['a:shell', 'b:shell', 'd:shell']);
    expect(findingList(result).filter(([rule]) => rule === 'ingest-note').map(([, line, , callId]) => [line, callId])).toEqual([
      [3, 'a'],
      [5, 'b'],
      [9, 'd'],
    ]);
  });
});
