import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../helpers.js';
import { auditPaths, countRun } from '../corpus.js';

const A = '3f1c0e52-6a0f-4d8e-9a55-0c1d2b7e8f10';
const B = '9b2d4a61-1e7c-4f3a-8c2e-5d6f7a8b9c01';

// test/fixtures/tool-events/claude-code-hooks.jsonl is built (not copied) from the documented
// Claude Code hook input (session_id, transcript_path, cwd, hook_event_name, tool_name,
// tool_input; PostToolUse adds tool_response, PostToolUseFailure error), as a hook that logs its
// stdin to JSONL writes it; versions before tool_use_id. Truth by python3, FIFO per (session, tool):
// 5 starts, 4 ends (1 failure), pairs (3,5) (4,6) (2,7) (8,9), line 10 (Edit) never ends, 2 other lines.
describe('tool start/end events without call ids', () => {
  it('pairs each end with the oldest open start of its tool in its session, one note per run', async () => {
    const { result, runs } = await auditPaths(['test/fixtures/tool-events/claude-code-hooks.jsonl']);
    expect(result.files.map((f) => [f.format, f.records, f.runs, f.skipped])).toEqual([
      ['tool-events', 9, 2, [{ reason: 'line is not a tool start or end event', count: 2, firstLine: 1 }]],
    ]);
    expect(runs.map(countRun).sort((x, y) => (x.runId! < y.runId! ? -1 : 1))).toEqual([
      { runId: A, llm: 0, calls: 4, results: 3, errors: 1, orphans: ['Edit#1:Edit'], unmatched: [], catalog: [] },
      { runId: B, llm: 0, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
    ]);
    const pairs = runs.flatMap((run) => run.results.map((r) => [run.calls.find((c) => c.callId === r.callId)!.loc.line, r.loc.line]));
    expect(pairs.sort((a, b) => a[1]! - b[1]!)).toEqual([[3, 5], [4, 6], [2, 7], [8, 9]]);
    const note = 'tool start and end lines carry no call id; each end is paired by order with the oldest open start of the same tool in the session';
    expect(findingsOf(result, 'ingest-note')).toEqual([
      { line: 2, callId: null, tool: null, runId: A, message: note },
      { line: 4, callId: null, tool: null, runId: B, message: note },
    ]);
    expect(findingsOf(result, 'orphan-call').map((f) => [f.line, f.callId, f.tool])).toEqual([[10, 'Edit#1', 'Edit']]);
  });

  it('lines with a call id are paired by it, with no note', async () => {
    const result = await auditFiles({
      'h.jsonl': jsonl(
        { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_use_id: 'toolu_1', tool_input: {} },
        { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_use_id: 'toolu_2', tool_input: {} },
        { session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_use_id: 'toolu_2', tool_response: 'b' },
      ),
    });
    expect(findingsOf(result, 'ingest-note')).toEqual([]);
    expect(findingsOf(result, 'orphan-call').map((f) => f.callId)).toEqual(['toolu_1']);
  });

  it('reads tool.start / tool.end telemetry lines the same way', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { event: 'tool.start', session: 'x', tool: 'search', ts: 1000, args: { q: 'a' } },
        { event: 'tool.end', session: 'x', tool: 'search', ts: 1200, status: 'error', output: 'timeout' },
      ),
    });
    expect(result.files[0]!.format).toBe('tool-events');
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([['x', 1, 1]]);
    expect(findingsOf(result, 'ingest-note').map((f) => f.line)).toEqual([1]);
  });
});
