import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const dirty = readFileSync('test/fixtures/replay/session-dirty.jsonl', 'utf8');
const clean = readFileSync('test/fixtures/replay/session-clean.jsonl', 'utf8');

describe('non-determinism', () => {
  it('flags the identical search whose response changed in the replay transcript', async () => {
    expect(findingsOf(await auditFiles({ 'session.jsonl': dirty }), 'non-determinism')).toEqual([
      { line: 6, callId: 'index:5', tool: 'search', runId: null, message: "tool 'search' returned a different response than the identical call at index 3" },
    ]);
  });

  it('compares with the first response on span logs with arguments and results, per run', async () => {
    const call = (id: string, run = 'r') => ({ run_id: run, kind: 'tool_call', call_id: id, tool: 'search', args: { q: 'install', limit: 5 } });
    const result = (id: string, hits: number, run = 'r') => ({ run_id: run, kind: 'tool_result', call_id: id, tool: 'search', result: { hits } });
    const audit = await auditFiles({
      't.jsonl': jsonl(call('c1'), result('c1', 3), call('c2'), result('c2', 3), call('c3'), result('c3', 4), call('c4'), result('c4', 5), call('c1', 'other'), result('c1', 9, 'other')),
    });
    expect(findingsOf(audit, 'non-determinism')).toEqual([
      { line: 6, callId: 'c3', tool: 'search', runId: 'r', message: "tool 'search' returned a different response than the identical call at line 1" },
      { line: 8, callId: 'c4', tool: 'search', runId: 'r', message: "tool 'search' returned a different response than the identical call at line 1" },
    ]);
  });

  it('does not flag equal responses in another key order, different arguments, or results without content', async () => {
    const audit = await auditFiles({
      'clean.jsonl': clean,
      'spans.jsonl': jsonl(
        { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'search', args: { q: 'a' } },
        { run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'search', result: { hits: 1 } },
        { run_id: 'r', kind: 'tool_call', call_id: 'c2', tool: 'search', args: { q: 'b' } },
        { run_id: 'r', kind: 'tool_result', call_id: 'c2', tool: 'search', result: { hits: 2 } },
        { run_id: 'r', kind: 'tool_call', call_id: 'c3', tool: 'search', args: { q: 'a' } },
        { run_id: 'r', kind: 'tool_result', call_id: 'c3', tool: 'search' },
      ),
    });
    expect(findingsOf(audit, 'non-determinism')).toEqual([]);
  });
});
