import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, tempTree } from '../helpers.js';
import { cli } from './run-cli.js';

const DIR = 'test/fixtures/replay';
const golden = (name: string) => readFileSync(join(DIR, name), 'utf8');
const ok = { index: 0, tool: 'read_file', args: { path: 'a' }, response: { text: 'x' } };

describe('agent-trace-audit replay', () => {
  it("prints the line report of the dirty session byte for byte and exits 1, as ToolReplay does on findings (default fail level: note)", async () => {
    const run = await cli(['replay', `${DIR}/session-dirty.jsonl`]);
    expect(run).toEqual({ code: 1, stdout: golden('expected-replay-dirty.txt'), stderr: '' });
    // The configuration's fail-on is kept: error lets the warning and the note pass.
    const root = tempTree({ 's.jsonl': readFileSync(`${DIR}/session-dirty.jsonl`, 'utf8'), 'agent-trace-audit.yml': 'fail-on: error\n' });
    expect(await cli(['replay', 's.jsonl'], root)).toEqual({ code: 0, stdout: golden('expected-replay-dirty.txt'), stderr: '' });
  });

  it('--fail-on takes the levels of audit: warning and note fail on the dirty session, never passes', async () => {
    for (const [level, code] of [['warning', 1], ['note', 1], ['error', 0], ['never', 0]] as const) {
      const run = await cli(['replay', `${DIR}/session-dirty.jsonl`, '--fail-on', level]);
      expect([level, run.code, run.stdout]).toEqual([level, code, golden('expected-replay-dirty.txt')]);
    }
    // Only the note (redundant-call at index 2): --fail-on warning passes, note fails.
    const root = tempTree({ 't.jsonl': jsonl(ok, { ...ok, index: 1 }) });
    expect((await cli(['replay', 't.jsonl', '--fail-on', 'warning'], root)).code).toBe(0);
    expect((await cli(['replay', 't.jsonl', '--fail-on', 'note'], root)).code).toBe(1);
    expect((await cli(['replay', 't.jsonl'], root)).code).toBe(1);
    expect((await cli(['replay', 't.jsonl'], tempTree({ 't.jsonl': jsonl(ok, { ...ok, index: 1 }), 'agent-trace-audit.yml': 'fail-on: note\n' }))).code).toBe(1);
  });

  it('prints the same findings as JSON with --format json, in the finding shape of audit (ruleId, severity, file, line)', async () => {
    const run = await cli(['replay', `${DIR}/session-dirty.jsonl`, '--format', 'json', '--fail-on', 'warning']);
    expect(run).toEqual({ code: 1, stdout: golden('expected-replay-dirty.json'), stderr: '' });
  });

  it('exits 0 on a clean session (reordered keys in a response are the same response)', async () => {
    const run = await cli(['replay', `${DIR}/session-clean.jsonl`]);
    expect(run).toEqual({ code: 0, stdout: 'calls: 5\ndivergence: none\nfindings: 0\n', stderr: '' });
  });

  it('takes redundant-call mutators from the configuration file', async () => {
    const root = tempTree({
      't.jsonl': jsonl(ok, { ...ok, index: 1 }),
      'agent-trace-audit.yml': 'rules:\n  redundant-call:\n    mutators: [read_file]\n',
    });
    expect(await cli(['replay', 't.jsonl'], root)).toEqual({ code: 0, stdout: 'calls: 2\ndivergence: none\nfindings: 0\n', stderr: '' });
  });

  const malformed: Array<[string, string, string]> = [
    ['an unknown field', jsonl(ok, { ...ok, index: 1, extra: 1 }), 't.jsonl:2: replay record has unknown field(s) "extra"'],
    ['an index out of order', jsonl(ok, { ...ok, index: 2 }), 't.jsonl:2: replay index 2 is out of order: expected 1'],
    ['a boolean index', jsonl({ ...ok, index: false }), 't.jsonl:1: replay "index" must be an integer, not a boolean'],
    ['a line that is not JSON', `${jsonl(ok)}{"index": 1,\n`, 't.jsonl:2: not JSON'],
    ['a record of another dialect', jsonl(ok, { kind: 'tool_call', call_id: 'c', tool: 'x' }), 't.jsonl:2: not a transcript record'],
  ];
  for (const [what, text, message] of malformed) {
    it(`exits 2 with file:line on ${what}`, async () => {
      const run = await cli(['replay', 't.jsonl'], tempTree({ 't.jsonl': text }));
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.startsWith(`malformed-transcript: ${message}`)).toBe(true);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('exits 2 on a missing transcript, a missing argument and an unknown format', async () => {
    expect((await cli(['replay', 'nope.jsonl'])).code).toBe(2);
    expect((await cli(['replay', 'nope.jsonl'])).stderr).toBe('no-such-path: no such file or directory: "nope.jsonl"\n');
    expect((await cli(['replay'])).code).toBe(2);
    const bad = await cli(['replay', `${DIR}/session-dirty.jsonl`, '--format', 'xml']);
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr: 'usage: --format must be one of text, json, not "xml"\nusage: agent-trace-audit replay <transcript.jsonl> [flags] (see agent-trace-audit replay --help)\n',
    });
  });
});
