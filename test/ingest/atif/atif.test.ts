import { describe, expect, it } from 'vitest';
import { auditTemp, countRun, findingList } from '../corpus.js';

// No ATIF file with a license that permits copying was found (see SOURCES.md); these
// trajectories follow the fields of the ATIF RFC (harbor docs/rfcs/0001-trajectory-format.md).
const trajectory = {
  schema_version: 'ATIF-v1.4',
  session_id: 'tb-hello-world-1',
  agent: {
    name: 'terminus-2',
    version: '2.0.0',
    model_name: 'gpt-5',
    tool_definitions: [
      { type: 'function', function: { name: 'bash', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } } },
      { type: 'function', function: { name: 'finish', description: 'End the task', parameters: { type: 'object', properties: {} } } },
    ],
  },
  steps: [
    { step_id: 1, timestamp: '2026-01-05T10:00:00Z', source: 'user', message: 'Create hello.txt with "Hello, world!"' },
    {
      step_id: 2,
      timestamp: '2026-01-05T10:00:03Z',
      source: 'agent',
      message: 'I will write the file.',
      tool_calls: [
        { tool_call_id: 'call_1', function_name: 'bash', arguments: { command: 'echo "Hello, world!" > hello.txt' } },
        { tool_call_id: 'call_2', function_name: 'bash', arguments: { command: 'cat hello.txt' } },
      ],
      observation: { results: [{ source_call_id: 'call_1', content: '' }, { source_call_id: 'call_2', content: 'Hello, world!' }, { content: 'terminal idle' }] },
    },
    { step_id: 3, timestamp: '2026-01-05T10:00:05Z', source: 'agent', message: 'Done.', tool_calls: [{ tool_call_id: 'call_3', function_name: 'finish', arguments: {} }] },
  ],
  final_metrics: { total_prompt_tokens: 1200, total_completion_tokens: 80, total_steps: 3 },
};

describe('atif: trajectories', () => {
  it('reads calls, results by source_call_id and the catalog; finish is answered by itself', async () => {
    const { result, runs } = await auditTemp({ 'trajectory.json': JSON.stringify(trajectory, null, 2) });
    expect(result.files).toEqual([{ path: 'trajectory.json', format: 'atif', records: 9, runs: 1 }]);
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
});
