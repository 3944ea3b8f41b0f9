import { describe, expect, it } from 'vitest';
import { jsonl } from '../../helpers.js';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'openhands';

// Counts read with python3: calls = actions with tool_call_metadata.tool_call_id; results =
// observations linked to one (by their own metadata or by `cause`) plus one per `finish`
// action (answered by itself); llm = distinct model_response ids plus agent message actions
// without one; errors = observation "error" or success false.
describeCorpus('openhands: corpus trajectories', corpusFilesUnder(dir), () => {
  it('reads the four saved trajectories; finish actions are not orphans', async () => {
    const names = ['basic', 'basic_gui_mode', 'basic_interactions', 'wrong_initial_state'];
    const { result, runs } = await auditCorpus(names.map((n) => `${dir}/${n}.json`));
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['openhands', 1, 6],
      ['openhands', 1, 13],
      ['openhands', 1, 5],
      ['openhands', 1, 12],
    ]);
    // Counted with python3 (list items by the line their object opens on): actions with no tool_call_metadata
    // that are not the agent's message, and observations with no metadata whose cause is no call.
    expect(result.files.map((f) => f.skipped)).toEqual([
      [{ reason: 'user action "message" without tool_call_metadata', count: 1, firstLine: 2 }],
      [
        { reason: 'environment action "change_agent_state" without tool_call_metadata', count: 1, firstLine: 13 },
        { reason: 'observation "agent_state_changed" that answers no call', count: 4, firstLine: 2 },
        { reason: 'observation "null" that answers no call', count: 3, firstLine: 24 },
        { reason: 'user action "message" without tool_call_metadata', count: 1, firstLine: 45 },
      ],
      [{ reason: 'user action "message" without tool_call_metadata', count: 3, firstLine: 2 }],
      [{ reason: 'user action "message" without tool_call_metadata', count: 1, firstLine: 2 }],
    ]);
    expect(runs.map(countRun)).toEqual([
      { runId: null, llm: 2, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: null, llm: 5, calls: 4, results: 4, errors: 1, orphans: [], unmatched: [], catalog: [] },
      { runId: null, llm: 3, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: null, llm: 4, calls: 4, results: 4, errors: 0, orphans: [], unmatched: [], catalog: [] },
    ]);
    expect(runs[1]!.calls.map((c) => [c.callId, c.tool])).toEqual([
      ['toolu_01W9Z8jBctr8X2frZV9p1RYs', 'execute_bash'],
      ['toolu_01YYLXwwdBLwtMmjr5Sfsieg', 'str_replace_editor'],
      ['toolu_01GpJj2ShdFjb9ZTY4CVxi9C', 'str_replace_editor'],
      ['toolu_01DwihWr4ooPZS1CGTLAWrFP', 'execute_bash'],
    ]);
    // The server started in the last command never exits: OpenHands records exit code -1 and success false.
    expect(runs[1]!.results.map((r) => [r.callId, r.isError, r.exitCode])).toEqual([
      ['toolu_01W9Z8jBctr8X2frZV9p1RYs', false, 0],
      ['toolu_01YYLXwwdBLwtMmjr5Sfsieg', false, null],
      ['toolu_01GpJj2ShdFjb9ZTY4CVxi9C', false, null],
      ['toolu_01DwihWr4ooPZS1CGTLAWrFP', true, -1],
    ]);
    expect(findingList(result)).toEqual([
      ['catalog-missing', 15, null, null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
      ['catalog-missing', 78, null, null, 'run has 4 tool calls but no catalog record: nothing to check the tool names against'],
      ['unstructured-error', 527, null, 'toolu_01DwihWr4ooPZS1CGTLAWrFP', `error result of 'execute_bash' has no machine-readable code (body: "Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...")`],
      ['catalog-missing', 67, null, null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['catalog-missing', 15, null, null, 'run has 4 tool calls but no catalog record: nothing to check the tool names against'],
    ]);
  });
});

describe('openhands: one event per line', () => {
  it('an error observation answers its action by cause; an action never observed is an orphan', async () => {
    const metadata = (id: string, fn: string) => ({ function_name: fn, tool_call_id: id, model_response: { id: `resp-${id}`, choices: [] } });
    const file = jsonl(
      { id: 0, timestamp: '2026-01-20T20:30:00', source: 'user', action: 'message', args: { content: 'run the tests' } },
      { id: 1, timestamp: '2026-01-20T20:30:01', source: 'agent', action: 'run', args: { command: 'pytest' }, tool_call_metadata: metadata('c1', 'execute_bash') },
      { id: 2, timestamp: '2026-01-20T20:30:02', source: 'agent', observation: 'error', cause: 1, content: 'Timeout', extras: {} },
      { id: 3, timestamp: '2026-01-20T20:30:03', source: 'agent', action: 'read', args: { path: '/w/a.py' }, tool_call_metadata: metadata('c2', 'str_replace_editor') },
    );
    const { result, runs } = await auditTemp({ 'events.jsonl': file });
    expect(result.files).toEqual([{ path: 'events.jsonl', format: 'openhands', records: 5, runs: 1, skipped: [{ reason: 'user action "message" without tool_call_metadata', count: 1, firstLine: 1 }], toolCalls: 2, toolResults: 1 }]);
    expect(runs[0]!.results.map((r) => [r.loc.line, r.callId, r.tool, r.isError, r.content])).toEqual([[3, 'c1', 'execute_bash', true, 'Timeout']]);
    expect(countRun(runs[0]!)).toMatchObject({ llm: 2, calls: 2, results: 1, orphans: ['c2:str_replace_editor'] });
  });
});
