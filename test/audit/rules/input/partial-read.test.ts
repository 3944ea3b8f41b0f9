import { describe, expect, it } from 'vitest';
import { looksLikeToolRecord } from '../../../../src/ingest/facts/tool-shape.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const s = 'sess-1';
const assistant = (id: string, content: unknown[]) => ({ type: 'assistant', sessionId: s, uuid: `a-${id}`, message: { id, role: 'assistant', content } });
const user = (content: unknown) => ({ type: 'user', sessionId: s, uuid: `u-${String(content).length}`, message: { role: 'user', content } });
// Claude Code 2.1 writes a sub-agent's turns as `progress` lines: data.message is a whole transcript record.
const progress = (record: unknown) => ({ type: 'progress', sessionId: s, uuid: 'p1', parentToolUseID: 'toolu_task', data: { message: record } });

describe('partial-read', () => {
  it('a Claude Code progress line with a sub-agent tool_use is counted and reported at its line', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { type: 'summary', summary: 'Refactor', leafUuid: 'x' },
        user('hi'),
        assistant('m1', [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'look' } }]),
        { type: 'file-history-snapshot', messageId: 'm1', snapshot: {} },
        { type: 'system', subtype: 'compact_boundary', sessionId: s, content: 'Conversation compacted' },
        { type: 'file-history-snapshot', messageId: 'm2', snapshot: {} },
        progress(assistant('m9', [{ type: 'tool_use', id: 'toolu_grep', name: 'Grep', input: { pattern: 'x' } }])),
        user([{ type: 'tool_result', tool_use_id: 'toolu_task', content: 'done' }]),
      ),
    });
    expect(findingsOf(result, 'partial-read')).toEqual([
      { line: 7, callId: null, tool: null, runId: null, message: "1 skipped record(s) look like tool calls or results ('claude-code' does not read them; first at line 7)" },
    ]);
    expect(result.findings.find((f) => f.ruleId === 'partial-read')!.severity).toBe('warning');
    expect(result.files).toEqual([
      {
        path: 't.jsonl',
        format: 'claude-code',
        records: 3, // the llm turn and Task call of m1, the Task result
        runs: 1,
        skipped: [
          { reason: 'record type "file-history-snapshot"', count: 2, firstLine: 4 },
          { reason: 'record type "progress"', count: 1, firstLine: 7 },
          { reason: 'record type "summary"', count: 1, firstLine: 1 },
          { reason: 'system record (subtype "compact_boundary") without a tool list', count: 1, firstLine: 5 },
        ],
        toolCalls: 1, // the Task call
        toolResults: 1, // its result
        toolShaped: 1, // the progress line's Grep call
      },
    ]);
  });

  it('records skipped that hold no tool call are counted, with no finding', async () => {
    const result = await auditFiles({ 't.jsonl': jsonl({ type: 'summary', summary: 'x', leafUuid: 'l' }, user('hi'), assistant('m1', [{ type: 'text', text: 'hello' }])) });
    expect(findingsOf(result, 'partial-read')).toEqual([]);
    expect(result.files[0]!.skipped).toEqual([{ reason: 'record type "summary"', count: 1, firstLine: 1 }]);
  });

  it('can be turned off', async () => {
    const result = await auditFiles(
      { 't.jsonl': jsonl(user('hi'), progress(assistant('m9', [{ type: 'tool_use', id: 't', name: 'Grep', input: {} }]))) },
      { rules: { 'partial-read': 'off' } },
    );
    expect(findingsOf(result, 'partial-read')).toEqual([]);
    expect(result.files[0]!.skipped).toEqual([{ reason: 'record type "progress"', count: 1, firstLine: 2 }]);
  });

  it('a hostile file of distinct record types keeps 32 reasons and counts the rest together', async () => {
    const lines = [user('hi'), ...Array.from({ length: 2000 }, (_, i) => ({ type: `t${i}`, sessionId: s }))];
    const result = await auditFiles({ 't.jsonl': jsonl(...lines) });
    const skipped = result.files[0]!.skipped;
    expect(skipped.length).toBe(33);
    expect(skipped.reduce((n, r) => n + r.count, 0)).toBe(2000);
    expect(skipped.find((r) => r.reason.startsWith('other reasons'))).toEqual({ reason: 'other reasons (more than 32 distinct)', count: 1968, firstLine: 34 });
  });

  it('looks for tool shapes a bounded way: 8 levels down, keys and type values, LangChain ToolMessage ids', () => {
    expect(looksLikeToolRecord({ a: { b: { content: [{ type: 'tool_use', id: 'x' }] } } })).toBe(true);
    expect(looksLikeToolRecord({ output: { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'ToolMessage'], kwargs: {} } })).toBe(true);
    expect(looksLikeToolRecord({ attributes: { 'gen_ai.tool.name': 'search' } })).toBe(true);
    expect(looksLikeToolRecord({ tool_calls: [] })).toBe(false);
    expect(looksLikeToolRecord({ type: 'text', text: 'tool_use' })).toBe(false);
    let deep: unknown = { type: 'tool_use' };
    for (let i = 0; i < 20; i += 1) deep = { next: deep };
    expect(looksLikeToolRecord(deep)).toBe(false);
    let chain: unknown = { type: 'tool_use' };
    for (let i = 0; i < 100_000; i += 1) chain = [chain];
    expect(looksLikeToolRecord(chain)).toBe(false);
  });
});
