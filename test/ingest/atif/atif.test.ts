import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditPaths, auditTemp, countRun, findingList } from '../corpus.js';

// No public ATIF file with a license that permits copying was found; this hand-written
// trajectory (test/fixtures/atif) follows the fields of the ATIF RFC (harbor docs/rfcs/0001-trajectory-format.md).
const fixture = 'test/fixtures/atif/hello-world.trajectory.json';
const trajectory = JSON.parse(readFileSync(fixture, 'utf8')) as Record<string, unknown>;

describe('atif: trajectories', () => {
  it('reads calls, results by source_call_id and the catalog; finish is answered by itself', async () => {
    const { result, runs } = await auditPaths([fixture]);
    // Read with python3: steps[0] is the user's prompt (opens on line 38), and results[2] of steps[1]
    // (line 75) is terminal output without a source_call_id.
    expect(result.files).toEqual([{ path: fixture, format: 'atif', records: 9, runs: 1, skipped: [
      { reason: 'observation result without source_call_id', count: 1, firstLine: 75 },
      { reason: 'step of source "user" without tool calls', count: 1, firstLine: 38 },
    ], toolCalls: 3, toolResults: 3 }]);
    expect(countRun(runs[0]!)).toEqual({ runId: 'tb-hello-world-1', llm: 2, calls: 3, results: 3, errors: 0, orphans: [], unmatched: [], catalog: ['bash', 'finish'] });
    expect(runs[0]!.results.map((r) => [r.callId, r.tool, r.content])).toEqual([
      ['call_1', 'bash', ''],
      ['call_2', 'bash', 'Hello, world!'],
      ['call_3', 'finish', {}],
    ]);
    expect(findingList(result)).toEqual([]);
  });

  it('a call whose observation never came is an orphan, and a result may say it failed', async () => {
    const broken = structuredClone(trajectory) as unknown as { steps: Array<Record<string, unknown>> };
    broken.steps[1]!['observation'] = { results: [{ source_call_id: 'call_1', content: 'bash: permission denied', is_error: true }] };
    const { result, runs } = await auditTemp({ 't.json': JSON.stringify(broken) });
    expect(countRun(runs[0]!)).toMatchObject({ calls: 3, results: 2, errors: 1, orphans: ['call_2:bash'] });
    expect(findingList(result).map(([rule, line, , callId]) => [rule, line, callId])).toEqual([
      ['orphan-call', 1, 'call_2'],
      ['unstructured-error', 1, 'call_1'],
    ]);
  });
  it('a result without source_call_id in a step with calls answers those calls (Terminus-2), with one note per run', async () => {
    // The shape of harbor's tests/golden/terminus_2/*.trajectory.json (public only in a repost without a
    // license, so tried from outside the repository, docs/wild-check.md): each agent step's keystrokes are
    // tool_calls, and the terminal output after them is one observation result with no source_call_id.
    const step = (id: number, calls: Array<[string, string]>, output: string) => ({
      step_id: id,
      source: 'agent',
      message: 'Analysis: ...',
      tool_calls: calls.map(([callId, name]) => ({ tool_call_id: callId, function_name: name, arguments: { keystrokes: 'ls\n', duration: 0.1 } })),
      observation: { results: [{ content: output }] },
    });
    const doc = {
      schema_version: 'ATIF-v1.5',
      session_id: 'terminus-shape',
      agent: { name: 'terminus-2', version: '2.0.0' },
      steps: [
        { step_id: 1, source: 'user', message: 'Create hello.txt' },
        { step_id: 2, source: 'agent', message: 'no JSON', observation: { results: [{ content: 'Previous response had parsing errors' }] } },
        step(3, [['call_1_1', 'bash_command'], ['call_1_2', 'bash_command']], 'New Terminal Output:\n$ '),
        step(4, [['call_2_task_complete', 'mark_task_complete']], 'Are you sure you want to mark the task as complete?'),
      ],
    };
    const { result, runs } = await auditTemp({ 't.json': JSON.stringify(doc, null, 2) });
    expect(countRun(runs[0]!)).toMatchObject({ llm: 3, calls: 3, results: 3, errors: 0, orphans: [], unmatched: [] });
    expect(runs[0]!.results.map((r) => [r.callId, r.tool, r.content])).toEqual([
      ['call_1_1', 'bash_command', 'New Terminal Output:\n$ '],
      ['call_1_2', 'bash_command', 'New Terminal Output:\n$ '],
      ['call_2_task_complete', 'mark_task_complete', 'Are you sure you want to mark the task as complete?'],
    ]);
    // Step 2's result has no call to answer: counted as skipped, as before.
    expect(result.files[0]!.skipped.map((s) => [s.reason, s.count])).toEqual([
      ['observation result without source_call_id', 1],
      ['step of source "user" without tool calls', 1],
    ]);
    expect(findingList(result).filter(([rule]) => rule === 'ingest-note' || rule === 'orphan-call').map(([rule, , , , message]) => [rule, message])).toEqual([
      ['ingest-note', '3 call(s) answered by an observation result without source_call_id in their own step (paired by step, not by id)'],
    ]);
  });
});
