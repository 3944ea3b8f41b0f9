import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const dirty = readFileSync('test/fixtures/replay/session-dirty.jsonl', 'utf8');
const clean = readFileSync('test/fixtures/replay/session-clean.jsonl', 'utf8');
const rec = (index: number, tool: string, args: object = { path: 'a.md' }) => ({ index, tool, args, response: { ok: true } });

describe('redundant-call', () => {
  it('flags the back-to-back identical read in the replay transcript (argument key order differs)', async () => {
    expect(findingsOf(await auditFiles({ 'session.jsonl': dirty }), 'redundant-call')).toEqual([
      { line: 3, callId: 'index:2', tool: 'read_file', runId: null, message: "tool 'read_file' repeats the identical call at index 1 with no state change between them" },
    ]);
  });

  it('flags each repeat of a run of identical calls against the one before, on span logs too', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'list_dir', args: { path: '.' } },
        { run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'list_dir' },
        { run_id: 'r', kind: 'llm' },
        { run_id: 'r', kind: 'tool_call', call_id: 'c2', tool: 'list_dir', args: { path: '.' } },
        { run_id: 'r', kind: 'tool_result', call_id: 'c2', tool: 'list_dir' },
        { run_id: 'r', kind: 'tool_call', call_id: 'c3', tool: 'list_dir', args: { path: '.' } },
      ),
    });
    expect(findingsOf(audit, 'redundant-call')).toEqual([
      { line: 4, callId: 'c2', tool: 'list_dir', runId: 'r', message: "tool 'list_dir' repeats the identical call at line 1 with no state change between them" },
      { line: 6, callId: 'c3', tool: 'list_dir', runId: 'r', message: "tool 'list_dir' repeats the identical call at line 4 with no state change between them" },
    ]);
  });

  it('does not flag a retry: a repeat after an error, an unflagged stack trace, a timeout or no result', async () => {
    const call = (id: string, ts: string, extra: object = {}) => ({ run_id: 'r', kind: 'tool_call', call_id: id, tool: 'search', args: { q: 'x' }, ts, ...extra });
    const result = (id: string, ts: string, extra: object = {}) => ({ run_id: 'r', kind: 'tool_result', call_id: id, tool: 'search', ts, ...extra });
    const audit = await auditFiles({
      't.jsonl': jsonl(
        call('c1', '2026-09-07T09:00:00.000Z'),
        result('c1', '2026-09-07T09:00:01.000Z', { http_status: 503 }),
        call('c2', '2026-09-07T09:00:02.000Z'),
        result('c2', '2026-09-07T09:00:03.000Z', { output: 'Traceback (most recent call last):\n  File "/srv/app/s.py", line 3, in search\nTimeoutError: upstream' }),
        call('c3', '2026-09-07T09:00:04.000Z', { deadline_ms: 1000 }),
        result('c3', '2026-09-07T09:00:09.000Z', { output: 'late hits' }),
        call('c4', '2026-09-07T09:00:10.000Z'),
        call('c5', '2026-09-07T09:00:20.000Z'),
        result('c5', '2026-09-07T09:00:21.000Z', { output: 'hits' }),
        call('c6', '2026-09-07T09:00:22.000Z'),
        result('c6', '2026-09-07T09:00:23.000Z', { output: 'hits' }),
      ),
    });
    // c2 retries an HTTP 503, c3 an unflagged traceback, c4 a result past its deadline, c5 a call with no result:
    // only c6, a repeat of the successful c5, is redundant.
    expect(findingsOf(audit, 'redundant-call')).toEqual([
      { line: 10, callId: 'c6', tool: 'search', runId: 'r', message: "tool 'search' repeats the identical call at line 8 with no state change between them" },
    ]);
    expect(audit.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId)).toEqual(['orphan-call']);
  });

  it('does not flag a repeat after a mutator or any different call, or a repeated mutator', async () => {
    const audit = await auditFiles({
      'clean.jsonl': clean,
      't.jsonl': jsonl(
        rec(0, 'read_file'),
        rec(1, 'write_file'),
        rec(2, 'read_file'),
        rec(3, 'stat', { path: 'b.md' }),
        rec(4, 'read_file'),
        rec(5, 'run_command', { cmd: 'make' }),
        rec(6, 'run_command', { cmd: 'make' }),
      ),
    });
    expect(findingsOf(audit, 'redundant-call')).toEqual([]);
  });

  it('takes its mutators from the options', async () => {
    const files = { 't.jsonl': jsonl(rec(0, 'deploy'), rec(1, 'deploy')) };
    expect(findingsOf(await auditFiles(files), 'redundant-call').map((f) => f.line)).toEqual([2]);
    expect(findingsOf(await auditFiles(files, { rules: { 'redundant-call': { mutators: ['deploy'] } } }), 'redundant-call')).toEqual([]);
  });
});
