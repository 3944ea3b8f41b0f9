import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { materialize, runAudit } from '../../../src/audit/engine/engine.js';
import { resolveConfig } from '../../../src/config/config.js';
import type { Run } from '../../../src/model/run.js';
import { auditFiles, findingsOf, jsonl, tempTree } from '../../helpers.js';
import { auditCorpus, countRun, findingList } from '../corpus.js';
import { describeCorpus } from '../../public-corpus.js';


describeCorpus('openai: corpus files', ['openai-agents/v1_11_tool_output_custom_data.json', 'openai-agents/v1_13_programmatic_tool_calling.json', 'openai-chat/otel-contrib-tool-calls-cassette.yaml'], () => {
  it('reads the Agents SDK run states: an output with no call, a program call whose inner function call has no output', async () => {
    const { result, runs } = await auditCorpus([`openai-agents/v1_11_tool_output_custom_data.json`, `openai-agents/v1_13_programmatic_tool_calling.json`]);
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
      // A run state keeps no tool list (true: nothing to check 'program' and 'lookup' against).
      ['catalog-missing', 40, null, null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
      ['orphan-call', 53, null, 'function-call', "call 'function-call' to 'lookup' has no result (the run went on without it, with no llm span after it)"],
    ]);
    expect(runs[1]!.calls.map((c) => [c.loc.line, c.callId, c.tool, c.args])).toEqual([
      [40, 'program-call', 'program', 'lookup()'],
      [53, 'function-call', 'lookup', {}],
    ]);
  });

  it('reads the VCR cassette as one conversation: each call once, though every request repeats it', async () => {
    const { result, runs } = await auditCorpus([`openai-chat/otel-contrib-tool-calls-cassette.yaml`]);
    expect(result.files).toEqual([{ path: `openai-chat/otel-contrib-tool-calls-cassette.yaml`, format: 'openai', records: 7, runs: 1, skipped: [], toolCalls: 2, toolResults: 2 }]);
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
    // The results are known from the second request's input: they come before its llm record (line 262).
    expect(run.records.map((r) => [r.kind, r.loc.line])).toEqual([
      ['catalog', 2],
      ['llm', 76],
      ['tool_call', 76],
      ['tool_call', 76],
      ['tool_result', 178],
      ['tool_result', 178],
      ['llm', 262],
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
    expect(result.files).toEqual([{ path: 'traj.json', format: 'openai', records: 7, runs: 2, skipped: [], toolCalls: 2, toolResults: 2 }]);
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
    // The trials record no tools (true), and each answers its own call 'c'.
    expect(result.findings.map((f) => [f.ruleId, f.line, f.runId, f.message])).toEqual([
      ['catalog-missing', 1, '7#0', 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['catalog-missing', 1, '7#1', 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
    ]);
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
    const result = materialize(await runAudit([{ path: join(root, 'items.json'), display: 'items.json' }], resolveConfig({}), { onRun: (run) => runs.push(run) }));
    expect(runs.map(countRun)).toEqual([{ runId: null, llm: 1, calls: 1, results: 1, errors: 1, orphans: [], unmatched: [], catalog: ['get_weather'] }]);
    expect(result.files[0]!.format).toBe('openai');
    // The run's catalog hash is recomputed from its one tool name: sha256 of ["get_weather"].
    expect(result.runs).toEqual([{ file: 'items.json', runId: null, format: 'openai', catalogSha256: createHash('sha256').update('["get_weather"]').digest('hex'), toolCalls: 1, toolResults: 1 }]);
    expect(result.runs[0]!.catalogSha256).toBe('f3f33e33f2b7269bd94461f4759271e72cee84db10a204a13f1b8405ada0f0bf');
    // The incomplete output is a failure whose body carries no code: true.
    expect(result.findings.map((f) => [f.ruleId, f.line, f.callId, f.message])).toEqual([
      ['unstructured-error', 1, 'call_1', `error result of 'get_weather' has no machine-readable code (body: "rain")`],
    ]);
  });

  it('reads JSONL with one conversation per line as one run per line', async () => {
    const result = await auditFiles({
      'ft.jsonl': jsonl(
        { messages: [{ role: 'assistant', tool_calls: [call('x', 'add', { a: 1 })] }, { role: 'tool', tool_call_id: 'x', content: '2' }] },
        { messages: [{ role: 'assistant', tool_calls: [call('x', 'add', { a: 2 })] }] },
      ),
    });
    expect(result.files[0]!.format).toBe('openai');
    // No line records its tools (true); the second line never answers 'x'.
    expect(result.findings.map((f) => [f.ruleId, f.line, f.runId, f.callId])).toEqual([
      ['catalog-missing', 1, 'line 1', null],
      ['catalog-missing', 2, 'line 2', null],
      ['orphan-call', 2, 'line 2', 'x'],
    ]);
  });
});

describe('openai: hostile cassettes', () => {
  it('measures an alias bomb instead of expanding it: 9 levels of 10 aliases are refused, 3 levels (30 KB read) are read', async () => {
    /** `levels` lists, each of ten aliases of the one before, under the first request; "x" is 3 bytes in the source. */
    const bomb = (levels: number) => {
      const lines = ['interactions:', '- request:', '    body: &l0 ["x","x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i <= levels; i += 1) lines.push(`    l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(',')}]`);
      return [...lines, '  response: {}', ''].join('\n');
    };
    // Level i's ten aliases stand for 30 × 10^i bytes of source in all.
    const expanded = (levels: number) => Array.from({ length: levels }, (_, i) => 30 * 10 ** (i + 1)).reduce((a, b) => a + b, 0);
    const big = await auditFiles({ 'bomb.yaml': bomb(9) });
    expect(big.files.map((f) => f.format)).toEqual(['openai']);
    expect(big.findings.map((f) => [f.ruleId, f.line, f.message])).toEqual([
      ['malformed-record', 1, `cassette not read: its aliases expand it by ${expanded(9)} bytes, past the limit of 536870912 bytes (limits.max-document-bytes)`],
    ]);
    const small = await auditFiles({ 'bomb.yaml': bomb(3) });
    expect(small.findings.map((f) => [f.ruleId, f.message])).toEqual([['ingest-note', "the file holds no tool calls ('openai': no tool call or result read, and no tool-shaped content)"]]);
  });
});
