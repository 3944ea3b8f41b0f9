import { describe, expect, it } from 'vitest';
import { auditFiles, jsonl } from '../helpers.js';

/** A string of about 1.2 MB: the first record is longer than the 1 MiB detection window. */
const LONG = 'x'.repeat(1_200_000);

const native = jsonl(
  { run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'write', args: { text: LONG } },
  { run_id: 'r1', kind: 'tool_result', call_id: 'c1', tool: 'write', result: { ok: true } },
  { run_id: 'r1', kind: 'tool_call', call_id: 'c2', tool: 'ls' },
);

const s = 'sess-1';
const claude = jsonl(
  { type: 'assistant', sessionId: s, uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { content: LONG } }] } },
  { type: 'user', sessionId: s, uuid: 'u1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] } },
  { type: 'assistant', sessionId: s, uuid: 'a2', message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'ls' } }] } },
);

const item = (payload: object, second: number) => ({ timestamp: `2026-01-06T00:00:${String(second).padStart(2, '0')}.000Z`, type: 'response_item', payload });
const codex = jsonl(
  { timestamp: '2026-01-06T00:00:00.000Z', type: 'session_meta', payload: { id: 'sess', cwd: '/repo', cli_version: '0.77.0', instructions: LONG } },
  item({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }, 1),
  item({ type: 'function_call_output', call_id: 'c1', output: '{"output":"a","metadata":{"exit_code":0}}' }, 2),
  item({ type: 'function_call', name: 'shell', arguments: '{"command":["pwd"]}', call_id: 'c2' }, 3),
);

describe('a first record longer than the detection window', () => {
  it.each([
    ['native', native, 'native-jsonl', 2],
    ['Claude Code', claude, 'claude-code', 2],
    ['Codex', codex, 'codex-rollout', 2],
  ])('%s: detected from the records after it, and every call audited', async (_, text, format, calls) => {
    expect(Buffer.byteLength(text.split('\n')[0]!)).toBeGreaterThan(1024 * 1024);
    const audit = await auditFiles({ 't.jsonl': text });
    expect(audit.files.map((f) => f.format)).toEqual([format]);
    expect(audit.findings.filter((f) => f.ruleId === 'unknown-format')).toEqual([]);
    expect(audit.runs.reduce((n, run) => n + run.toolCalls, 0)).toBe(calls);
    // The second call has no result: found, so the file was audited.
    expect(audit.findings.filter((f) => f.ruleId === 'orphan-call').map((f) => f.callId)).toEqual([format === 'claude-code' ? 'toolu_2' : 'c2']);
  });

  it('several long lines in a row: the sample reads past them (each up to 4 MiB parsed, longer ones passed over)', async () => {
    const big = { run_id: 'r1', kind: 'tool_call', call_id: 'big', tool: 'w', args: { text: 'y'.repeat(5 * 1024 * 1024) } };
    const text = jsonl(big, big, { run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'ls' });
    const audit = await auditFiles({ 't.jsonl': text });
    expect(audit.files.map((f) => f.format)).toEqual(['native-jsonl']);
  });
});
