import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runAudit } from '../../../src/audit/engine.js';
import { resolveConfig } from '../../../src/config.js';
import type { Run } from '../../../src/model/run.js';
import { auditFiles, findingsOf, jsonl, tempTree } from '../../helpers.js';
import { auditPaths, countRun, findingList } from '../corpus.js';

const corpus = '../shared/corpus';

describe('openai: corpus files', () => {
  it('reads the Agents SDK run states: an output with no call, a program call whose inner function call has no output', async () => {
    const { result, runs } = await auditPaths([`${corpus}/openai-agents/v1_11_tool_output_custom_data.json`, `${corpus}/openai-agents/v1_13_programmatic_tool_calling.json`]);
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['openai', 1, 1],
      ['openai', 1, 3],
    ]);
    expect(runs.map(countRun)).toEqual([
      { runId: null, llm: 0, calls: 0, results: 1, errors: 0, orphans: [], unmatched: ['custom-data-1:-'], catalog: [] },
      { runId: null, llm: 0, calls: 2, results: 1, errors: 0, orphans: ['function-call:lookup'], unmatched: [], catalog: [] },
    ]);
    expect(findingList(result)).toEqual([
      ['unmatched-result', 39, null, 'custom-data-1', "result for call id 'custom-data-1' has no matching call in this run"],
      ['orphan-call', 53, null, 'function-call', "call 'function-call' to 'lookup' has no result (nothing followed it in the run)"],
    ]);
    expect(runs[1]!.calls.map((c) => [c.loc.line, c.callId, c.tool, c.args])).toEqual([
      [40, 'program-call', 'program', 'lookup()'],
      [53, 'function-call', 'lookup', {}],
    ]);
  });

  it('reads the VCR cassette as one conversation: each call once, though every request repeats it', async () => {
    const { result, runs } = await auditPaths([`${corpus}/openai-chat/otel-contrib-tool-calls-cassette.yaml`]);
    expect(result.files).toEqual([{ path: `${corpus}/openai-chat/otel-contrib-tool-calls-cassette.yaml`, format: 'openai', records: 7, runs: 1 }]);
    expect(runs.map(countRun)).toEqual([{ runId: null, llm: 2, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: ['get_current_weather'] }]);
    const run = runs[0]!;
    expect(run.calls.map((c) => [c.loc.line, c.ts, c.callId, c.args])).toEqual([
      [76, 1731368634000, 'call_JpNb8OiAkbIbHzDggfpdDHpi', { location: 'Seattle, WA' }],
      [76, 1731368634000, 'call_vaFQc3zK6hHTRZKXRI5Eo2cJ', { location: 'San Francisco, CA' }],
    ]);
    expect(run.results.map((r) => [r.loc.line, r.callId, r.tool, r.content])).toEqual([
      [178, 'call_JpNb8OiAkbIbHzDggfpdDHpi', 'get_current_weather', '50 degrees and raining'],
      [178, 'call_vaFQc3zK6hHTRZKXRI5Eo2cJ', 'get_current_weather', '70 degrees and sunny'],
    ]);
    expect(findingList(result)).toEqual([]);
  });
});

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

describe('openai: hand-made shapes', () => {
  it('reads a trajectory list as one run per trajectory, with its tools as the catalog', async () => {
    const trajectories = [
      {
        instance_id: 'task-1',
        tools: [{ type: 'function', function: { name: 'ls', parameters: { type: 'object' } } }],
        traj: [
          { role: 'user', content: 'list' },
          { role: 'assistant', content: null, tool_calls: [call('a1', 'ls', { path: '.' })] },
          { role: 'tool', tool_call_id: 'a1', content: 'README.md' },
          { role: 'assistant', content: null, tool_calls: [call('a2', 'ls', { path: 'src' })] },
        ],
      },
      { messages: [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'zz', content: 'stray' }] },
    ];
    const result = await auditFiles({ 'traj.json': JSON.stringify(trajectories, null, 1) });
    expect(result.files).toEqual([{ path: 'traj.json', format: 'openai', records: 7, runs: 2 }]);
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
      ['task-1', 2, 1],
      ['#1', 0, 1],
    ]);
    expect(findingsOf(result, 'orphan-call')).toEqual([{ line: 39, callId: 'a2', tool: 'ls', runId: 'task-1', message: "call 'a2' to 'ls' has no result (nothing followed it in the run)" }]);
    expect(findingsOf(result, 'unmatched-result')).toEqual([{ line: 61, callId: 'zz', tool: null, runId: '#1', message: "result for call id 'zz' has no matching call in this run" }]);
  });

  it('keeps trials of one task apart when their ids repeat', async () => {
    const trial = (reward: number) => ({ task_id: 7, reward, traj: [{ role: 'assistant', tool_calls: [call('c', 'find', {})] }, { role: 'tool', tool_call_id: 'c', content: 'x' }] });
    const result = await auditFiles({ 'tau.json': JSON.stringify([trial(1), trial(0), { task_id: 8, traj: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] }]) });
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
      ['7#0', 1, 1],
      ['7#1', 1, 1],
      ['8', 0, 0],
    ]);
    expect(result.findings).toEqual([]);
  });

  it('reads Responses API items: function_call by call_id, function_call_output, a failed output', async () => {
    const items = [
      { type: 'message', role: 'user', content: 'weather?' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'rain', status: 'incomplete' },
    ];
    const runs: Run[] = [];
    const root = tempTree({ 'items.json': JSON.stringify({ model: 'gpt-5', input: items, tools: [{ type: 'function', name: 'get_weather', parameters: {} }] }) });
    const result = await runAudit([{ path: join(root, 'items.json'), display: 'items.json' }], resolveConfig({}), { onRun: (run) => runs.push(run) });
    expect(runs.map(countRun)).toEqual([{ runId: null, llm: 1, calls: 1, results: 1, errors: 1, orphans: [], unmatched: [], catalog: ['get_weather'] }]);
    expect(result.files[0]!.format).toBe('openai');
    expect(result.runs).toEqual([{ file: 'items.json', runId: null, format: 'openai', catalogSha256: null, toolCalls: 1, toolResults: 1 }]);
    expect(result.findings).toEqual([]);
  });

  it('reads JSONL with one conversation per line as one run per line', async () => {
    const result = await auditFiles({
      'ft.jsonl': jsonl(
        { messages: [{ role: 'assistant', tool_calls: [call('x', 'add', { a: 1 })] }, { role: 'tool', tool_call_id: 'x', content: '2' }] },
        { messages: [{ role: 'assistant', tool_calls: [call('x', 'add', { a: 2 })] }] },
      ),
    });
    expect(result.files[0]!.format).toBe('openai');
    expect(result.findings.map((f) => [f.ruleId, f.line, f.runId, f.callId])).toEqual([['orphan-call', 2, 'line 2', 'x']]);
  });
});

describe('openai: hostile cassettes', () => {
  it('reports an alias bomb instead of expanding it', async () => {
    const bomb = ['interactions:', '- request:', '    body: &a ["x","x","x","x","x","x","x","x","x","x"]', '    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]', '    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]', '    d: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]', '  response: {}', ''].join('\n');
    const result = await auditFiles({ 'bomb.yaml': bomb });
    expect(result.files.map((f) => f.format)).toEqual(['openai']);
    expect(result.findings.map((f) => [f.ruleId, f.line, f.message])).toEqual([['malformed-record', 2, 'cassette interaction cannot be read (Excessive alias count indicates a resource exhaustion attack)']]);
  });
});
