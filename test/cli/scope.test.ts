import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, tempTree } from '../helpers.js';
import { cli } from './run-cli.js';

const DIR = 'test/fixtures/replay';
const golden = (name: string) => readFileSync(join(DIR, name), 'utf8');
const call = (index: number, tool: string) => ({ index, tool, args: {}, response: { ok: true } });

describe('agent-trace-audit scope', () => {
  it('prints the line report of the dirty session byte for byte and exits 1', async () => {
    const run = await cli(['scope', `${DIR}/session-dirty.jsonl`, `${DIR}/scope.json`]);
    expect(run).toEqual({ code: 1, stdout: golden('expected-scope-dirty.txt'), stderr: '' });
  });

  it('prints the same findings as JSON with --format json', async () => {
    const run = await cli(['scope', `${DIR}/session-dirty.jsonl`, `${DIR}/scope.json`, '--format', 'json']);
    expect(run).toEqual({ code: 1, stdout: golden('expected-scope-dirty.json'), stderr: '' });
  });

  it('exits 1 on a finding the configuration made a note (default fail level: note), 0 with --fail-on warning', async () => {
    const root = tempTree({
      't.jsonl': jsonl(call(0, 'write_file')),
      's.json': JSON.stringify({ agent: 'a', allowed_tools: ['read_file'] }),
      'agent-trace-audit.yml': 'rules:\n  permission-overreach: note\n',
    });
    expect((await cli(['scope', 't.jsonl', 's.json'], root)).code).toBe(1);
    expect((await cli(['scope', 't.jsonl', 's.json', '--fail-on', 'warning'], root)).code).toBe(0);
  });

  it('exits 0 when every call is in scope', async () => {
    const run = await cli(['scope', `${DIR}/session-clean.jsonl`, `${DIR}/scope.json`]);
    expect(run).toEqual({ code: 0, stdout: 'calls: 5\nfindings: 0\n', stderr: '' });
  });

  it('matches tool names exactly and case-sensitively', async () => {
    const root = tempTree({
      't.jsonl': jsonl(call(0, 'Read_File'), call(1, 'read_file'), call(2, '__proto__')),
      's.json': JSON.stringify({ agent: 'a', allowed_tools: ['read_file'] }),
    });
    expect(await cli(['scope', 't.jsonl', 's.json'], root)).toEqual({
      code: 1,
      stdout:
        'calls: 3\nfindings: 2\n' +
        "index 0: permission-overreach: tool 'Read_File' is not in the declared scope for agent 'a'\n" +
        "index 2: permission-overreach: tool '__proto__' is not in the declared scope for agent 'a'\n",
      stderr: '',
    });
  });

  const badScopes: Array<[string, string, string]> = [
    ['a missing field', '{"agent": "a"}', 'config: s.json: invalid scope: allowed_tools: Invalid input: expected array, received undefined\n'],
    ['a wrong type', '{"agent": 7, "allowed_tools": []}', 'config: s.json: invalid scope: agent: Invalid input: expected string, received number\n'],
    ['a non-string entry', '{"agent": "a", "allowed_tools": ["x", 1]}', 'config: s.json: invalid scope: allowed_tools.1: Invalid input: expected string, received number\n'],
    ['an unknown field', '{"agent": "a", "allowed_tools": [], "tools": []}', 'config: s.json: invalid scope: tools: unknown key\n'],
    ['invalid JSON', '{"agent": ', 'config: s.json: scope file is not valid JSON'],
  ];
  for (const [what, text, message] of badScopes) {
    it(`exits 2 with one line naming the problem for a scope file with ${what}`, async () => {
      const run = await cli(['scope', 't.jsonl', 's.json'], tempTree({ 't.jsonl': jsonl(call(0, 'x')), 's.json': text }));
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.startsWith(message)).toBe(true);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('exits 2 for a missing scope file or a missing argument', async () => {
    expect(await cli(['scope', `${DIR}/session-dirty.jsonl`, 'none.json'])).toEqual({ code: 2, stdout: '', stderr: 'no-such-path: no such scope file: "none.json"\n' });
    expect((await cli(['scope', `${DIR}/session-dirty.jsonl`])).code).toBe(2);
  });
});
