import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../helpers.js';

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
        { run_id: 'r', kind: 'tool_call', call_id: 'c3', tool: 'list_dir', args: { path: '.' } },
      ),
    });
    expect(findingsOf(audit, 'redundant-call')).toEqual([
      { line: 4, callId: 'c2', tool: 'list_dir', runId: 'r', message: "tool 'list_dir' repeats the identical call at line 1 with no state change between them" },
      { line: 5, callId: 'c3', tool: 'list_dir', runId: 'r', message: "tool 'list_dir' repeats the identical call at line 4 with no state change between them" },
    ]);
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
