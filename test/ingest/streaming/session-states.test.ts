import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { materialize, runAudit } from '../../../src/audit/engine/engine.js';
import { resolveConfig, type ConfigFile } from '../../../src/config/config.js';
import { SessionStates } from '../../../src/ingest/read/session-states.js';
import type { RecordSink } from '../../../src/ingest/types.js';
import type { Run } from '../../../src/model/run.js';
import { jsonl, tempTree } from '../../helpers.js';

async function audit(name: string, text: string, config: ConfigFile = {}) {
  const root = tempTree({ [name]: text });
  const runs: Run[] = [];
  const result = materialize(await runAudit([{ path: join(root, name), display: name }], resolveConfig(config), { onRun: (run) => runs.push(run) }));
  return { result, runs };
}

describe('SessionStates: a parser state per open run', () => {
  it('drops a run idle for the window (checked every 1024 records) and closes it in the sink, once; 0 keeps it', () => {
    const ended: Array<string | null> = [];
    const sink: RecordSink = { record() {}, diagnostic() {}, skip() {}, endRun: (runId) => ended.push(runId) };
    const made: Array<string | null> = [];
    const states = new SessionStates<{ n: number }>(1000, (runId) => (made.push(runId), { n: 0 }), sink);
    states.tick();
    states.get('a').n += 1;
    states.tick();
    states.get(null).n += 1;
    for (let i = 0; i < 1021; i += 1) {
      states.tick();
      states.get('b');
    }
    // 1023 records read: no sweep yet.
    expect([states.size, ended]).toEqual([3, []]);
    states.tick(); // the 1024th: a and the run without id were last used 1022 and 1023 records ago
    expect([states.size, ended]).toEqual([1, ['a', null]]);
    expect(states.get('a').n).toBe(0); // made afresh
    states.end('a');
    states.end('a');
    expect(ended).toEqual(['a', null, 'a']);
    expect(made).toEqual(['a', null, 'b', 'a']);
    const kept = new SessionStates<number>(0, () => 1, sink);
    kept.get('x');
    for (let i = 0; i < 5000; i += 1) kept.tick();
    expect(kept.size).toBe(1);
  });
});

const claudeLine = (sessionId: string, type: 'user' | 'assistant', content: unknown, id?: string) => ({
  type,
  sessionId,
  timestamp: '2026-01-05T09:00:00Z',
  message: { ...(id ? { id } : {}), role: type, content },
});

describe('Claude Code: state per session, released when it goes idle', () => {
  // Session A calls a tool, then 1,100 prompt lines of session B (no records), then A's result (which does not name its tool).
  const text = jsonl(
    claudeLine('A', 'assistant', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'x' } }], 'msg_a1'),
    ...Array.from({ length: 1100 }, (_, i) => claudeLine('B', 'user', `prompt ${i}`)),
    claudeLine('A', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }]),
  );

  it('keeps the session open to the end with run-idle-records 0: the result is named by its call', async () => {
    const { result, runs } = await audit('s.jsonl', text, { limits: { 'run-idle-records': 0 } });
    expect(runs.map((r) => [r.runId, r.calls.length, r.results.length, r.results[0]?.tool ?? null])).toEqual([
      ['A', 1, 1, 'Read'],
    ]);
    expect(result.findings.filter((f) => f.ruleId === 'run-split')).toEqual([]);
  });

  it('with a window of 1,000 records the idle session is closed and its state dropped: the resumed part is reported as split', async () => {
    const { result, runs } = await audit('s.jsonl', text, { limits: { 'run-idle-records': 1000 } });
    expect(runs.map((r) => [r.runId, r.calls.length, r.results.length, r.results[0]?.tool ?? null])).toEqual([
      ['A', 1, 0, null],
      ['A', 0, 1, null],
    ]);
    expect(result.findings.filter((f) => f.ruleId === 'run-split').map((f) => [f.line, f.runId])).toEqual([[1102, 'A']]);
  });
});

describe('one file, many sessions: Codex rollouts, Gemini CLI sessions, MCP connections', () => {
  it('Codex: each session_meta with another id starts the next run; the same id again goes on', async () => {
    const roll = (id: string, call: string) => [
      { timestamp: '2026-01-06T09:00:00Z', type: 'session_meta', payload: { id } },
      { timestamp: '2026-01-06T09:00:01Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: call } },
      { timestamp: '2026-01-06T09:00:02Z', type: 'response_item', payload: { type: 'function_call_output', call_id: call, output: '{"output":"a","metadata":{"exit_code":0}}' } },
    ];
    const { runs } = await audit('r.jsonl', jsonl(...roll('s1', 'c1'), ...roll('s2', 'c1'), ...roll('s2', 'c2')));
    expect(runs.map((r) => [r.runId, r.calls.map((c) => c.callId), r.results.map((x) => `${x.callId}:${x.tool}`)])).toEqual([
      ['s1', ['c1'], ['c1:shell']],
      ['s2', ['c1', 'c2'], ['c1:shell', 'c2:shell']],
    ]);
  });

  it('Gemini CLI JSONL: each header with another sessionId starts the next run, with its own ids already read', async () => {
    const session = (id: string) => [
      { sessionId: id, projectHash: 'ab'.repeat(32), startTime: '2026-01-07T09:00:00Z' },
      { id: 'm1', type: 'gemini', content: 'x', sessionId: id, toolCalls: [{ id: 't1', name: 'read_file', args: {}, result: [{ functionResponse: { response: { output: 'ok' } } }], status: 'success' }] },
    ];
    const { runs } = await audit('g.jsonl', jsonl(...session('g1'), ...session('g2')));
    expect(runs.map((r) => [r.runId, r.llmSpans.length, r.calls.length, r.results.length])).toEqual([
      ['g1', 1, 1, 1],
      ['g2', 1, 1, 1],
    ]);
  });

  it('MCP JSONL: an initialize after other messages starts the next connection, whose ids start over', async () => {
    const connection = () => [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 0, result: { capabilities: {} } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { q: 'Oslo' } } },
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'sunny' }] } },
    ];
    const { result, runs } = await audit('m.jsonl', jsonl(...connection(), ...connection(), ...connection()));
    expect(result.files.map((f) => [f.format, f.records, f.runs])).toEqual([['mcp', 6, 3]]);
    expect(runs.map((r) => [r.runId, r.calls.map((c) => `${c.callId}:${c.loc.line}`), r.results.map((x) => `${x.callId}:${x.tool}`)])).toEqual([
      [null, ['1:3'], ['1:get_weather']],
      ['connection #2', ['1:7'], ['1:get_weather']],
      ['connection #3', ['1:11'], ['1:get_weather']],
    ]);
  });
});
