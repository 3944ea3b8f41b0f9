import { describe, expect, it } from 'vitest';
import { ConfigurationError, describeError, InputError, UsageError } from '../../../src/errors.js';
import { tempTree } from '../../helpers.js';
import { runInProcess } from '../audit-cli.js';

const TRACE = `${JSON.stringify({ run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'ls' })}\n`;
const STACK = /\n\s+at /;

describe('configuration and scope files: unknown keys named, wrong types explained with their path, exit 2', () => {
  const root = tempTree({
    't.jsonl': TRACE,
    'bad.yml': 'fail-on: 3\nunknown-top: x\nrules:\n  retry-storm:\n    severity: loud\n    threshold: "x"\n    colour: red\n  no-such-rule: {}\nlimits:\n  max-depth: -1\n',
    'broken.yml': 'rules: [1\n',
    'scope.json': '{"agent": 3, "allowed_tools": ["ls", 4], "extra": true}',
    'broken-scope.json': '{"agent":"a","allowed_tools":["ls"]',
  });

  it('a config file with unknown keys and wrong types', async () => {
    const run = await runInProcess(['audit', 't.jsonl', '--config', 'bad.yml'], root);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const line = run.stderr.trimEnd();
    expect(line.startsWith('config: bad.yml: ')).toBe(true);
    for (const part of [
      'fail-on: Invalid option: expected one of "error"|"warning"|"note"|"never"',
      'unknown-top: unknown key',
      'rules.retry-storm.severity: Invalid option: expected one of "error"|"warning"|"note"|"off"',
      'rules.retry-storm.threshold: Invalid input: expected number, received string',
      'rules.retry-storm.colour: unknown key',
      'limits.max-depth: Too small: expected number to be >0',
    ]) {
      expect(line).toContain(part);
    }
    expect(line).toMatch(/no-such-rule/);
    expect(run.stderr).not.toMatch(STACK);
    expect(run.stderr.split('\n')).toHaveLength(2);
  });

  it('a long list of problems is cut with a count of the rest', async () => {
    const ids = ['orphan-call', 'retry-storm', 'unknown-tool', 'unused-tool', 'late-result', 'budget-miss', 'redundant-call', 'run-split', 'schema-drift', 'truncated-tail'];
    const dir = tempTree({ 't.jsonl': TRACE, 'many.yml': `rules:\n${ids.map((id) => `  ${id}:\n    severity: loud\n`).join('')}` });
    const run = await runInProcess(['audit', 't.jsonl', '--config', 'many.yml'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr.match(/severity: Invalid option/g)).toHaveLength(8);
    expect(run.stderr).toMatch(/; and 2 more problem\(s\)\n$/);
  });

  it('a config file that is not YAML, and one that does not exist', async () => {
    const broken = await runInProcess(['audit', 't.jsonl', '--config', 'broken.yml'], root);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^config: broken\.yml: not valid YAML (at line \d+, column \d+|at the end of the file) .*\n$/);
    const missing = await runInProcess(['audit', 't.jsonl', '--config', 'nope.yml'], root);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('no-such-path: no such configuration file: "nope.yml"\n');
  });

  it('a scope file with unknown keys and wrong types, and one that is not JSON', async () => {
    const bad = await runInProcess(['scope', 't.jsonl', 'scope.json'], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'config: scope.json: invalid scope: agent: Invalid input: expected string, received number; allowed_tools.1: Invalid input: expected string, received number; extra: unknown key\n',
    );
    const broken = await runInProcess(['scope', 't.jsonl', 'broken-scope.json'], root);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^config: broken-scope\.json: scope file is not valid JSON: [^\n]*\n$/);
  });

  it('a bad flag or value is a usage error with the usage line, exit 2, no stack', async () => {
    const run = await runInProcess(['audit', 't.jsonl', '--bogus'], root);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('usage: unknown flag --bogus');
    const jobs = await runInProcess(['audit', 't.jsonl', '--jobs', '0'], root);
    expect(jobs.stderr).toBe('usage: --jobs must be a whole number from 1 to 256, not "0"\nusage: agent-trace-audit audit <file|dir|glob>... [flags] (see agent-trace-audit audit --help)\n');
    expect(run.stderr + jobs.stderr).not.toMatch(STACK);
  });

  it('--debug, or ACTIONS_STEP_DEBUG=true, adds the stack after the same first line; otherwise never', async () => {
    const plain = await runInProcess(['audit', 't.jsonl', '--config', 'nope.yml'], root);
    const debug = await runInProcess(['audit', 't.jsonl', '--config', 'nope.yml', '--debug'], root);
    const stepDebug = await runInProcess(['audit', 't.jsonl', '--config', 'nope.yml'], root, { ACTIONS_STEP_DEBUG: 'true' });
    const notDebug = await runInProcess(['audit', 't.jsonl', '--config', 'nope.yml'], root, { ACTIONS_STEP_DEBUG: 'false' });
    expect(plain.stderr).not.toMatch(STACK);
    expect(notDebug.stderr).toBe(plain.stderr);
    for (const run of [debug, stepDebug]) {
      expect(run.code).toBe(2);
      expect(run.stderr.startsWith(plain.stderr)).toBe(true);
      expect(run.stderr).toMatch(STACK);
    }
  });

  it('each kind of error carries a stable code; a bug says so and hides its stack unless debugging', () => {
    expect(describeError(new UsageError('bad flag'), false)).toBe('usage: bad flag');
    expect(describeError(new ConfigurationError('bad key'), false)).toBe('config: bad key');
    expect(describeError(new InputError('a.jsonl', 3, 'no-such-path', 'missing'), false)).toBe('no-such-path: missing');
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')\nsecond line");
    expect(describeError(bug, false)).toBe(
      "internal-error: Cannot read properties of undefined (reading 'x') (this is a bug in agent-trace-audit; rerun with --debug for details)",
    );
    expect(describeError(bug, true)).toMatch(STACK);
    expect(describeError('thrown string', false)).toBe('internal-error: thrown string (this is a bug in agent-trace-audit; rerun with --debug for details)');
  });
});
