import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile, resolveConfig } from '../../src/config/config.js';
import { ConfigurationError } from '../../src/errors.js';
import { cli } from '../cli/run-cli.js';
import { auditFiles, jsonl, tempTree } from '../helpers.js';

async function loadError(yaml: string): Promise<string> {
  const root = tempTree({ 'c.yml': yaml });
  const error = await loadConfigFile(join(root, 'c.yml')).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  return (error as ConfigurationError).message.replace(`${root}/`, '');
}

describe('configuration file', () => {
  it('names an unknown rule id by its path', async () => {
    expect(await loadError('rules:\n  no-such-rule: off\n')).toBe('c.yml: rules.no-such-rule: unknown rule id "no-such-rule"');
  });

  it('names an unknown option by its path', async () => {
    expect(await loadError('rules:\n  retry-storm:\n    treshold: 4\n')).toBe('c.yml: rules.retry-storm.treshold: unknown key (did you mean "threshold"?)');
  });

  it('names an option of the wrong type by its path', async () => {
    expect(await loadError('rules:\n  retry-storm:\n    threshold: many\n')).toBe(
      'c.yml: rules.retry-storm.threshold: Invalid input: expected number, received string',
    );
    expect(await loadError('rules:\n  redundant-call:\n    mutators: [write_file, 3]\n')).toBe(
      'c.yml: rules.redundant-call.mutators.1: Invalid input: expected string, received number',
    );
    expect(await loadError('rules:\n  retry-storm:\n    threshold: 1\n')).toBe('c.yml: rules.retry-storm.threshold: Too small: expected number to be >=2');
  });

  it('names a wrong severity and an unknown top-level key', async () => {
    expect(await loadError('rules:\n  retry-storm:\n    severity: loud\n')).toBe(
      'c.yml: rules.retry-storm.severity: Invalid option: expected one of "error"|"warning"|"note"|"off"',
    );
    expect(await loadError('rules:\n  retry-storm: loud\n')).toBe('c.yml: rules.retry-storm: Invalid option: expected one of "error"|"warning"|"note"|"off"');
    expect(await loadError('fail_on: never\n')).toBe('c.yml: fail_on: unknown key (did you mean "fail-on"?)');
  });

  it('fills in defaults and keeps what is given', async () => {
    const root = tempTree({ 'c.yml': 'rules:\n  retry-storm:\n    threshold: 5\n  redundant-call: off\n' });
    const config = resolveConfig(await loadConfigFile(join(root, 'c.yml')));
    expect(config.rules.get('retry-storm')).toEqual({ severity: 'warning', options: { threshold: 5 } });
    expect(config.rules.get('redundant-call')).toEqual({
      severity: 'off',
      options: { mutators: ['write_file', 'delete_file', 'create_file', 'move_file', 'run_command'] },
    });
    expect(config.rules.get('permission-overreach')).toEqual({ severity: 'error', options: {} });
    expect(config.failOn).toBe('error');
  });

  it('rejects the same mistakes in a configuration built in code', () => {
    expect(() => resolveConfig({ rules: { 'no-such-rule': 'off' } })).toThrow('configuration: rules.no-such-rule: unknown rule id "no-such-rule"');
    expect(() => resolveConfig({ rules: { 'retry-storm': { threshold: 'x' } } })).toThrow(
      'configuration: rules.retry-storm: threshold: Invalid input: expected number, received string',
    );
  });

  it('reports an invalid scope file of permission-overreach before any trace is read', async () => {
    const files = { 't.jsonl': jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'x' }), 's.json': '{"agent": "a"}' };
    const root = tempTree(files);
    // A scope file named in the configuration is read inside the working folder only (src/io/confine.ts).
    const cwd = process.cwd();
    process.chdir(root);
    try {
      await expect(auditFiles(files, { rules: { 'permission-overreach': { scope: 's.json' } } })).rejects.toThrow(
        'invalid scope: allowed_tools: Invalid input: expected array, received undefined',
      );
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('configuration errors on the command line', () => {
  it('exit 2 with one line naming the path', async () => {
    const root = tempTree({ 'agent-trace-audit.yml': 'rules:\n  retry-storm:\n    bogus: 1\n', 't.jsonl': jsonl({ kind: 'llm' }) });
    expect(await cli(['audit', 't.jsonl'], root)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'config: agent-trace-audit.yml: rules.retry-storm.bogus: unknown key\n',
    });
    expect(await cli(['replay', 't.jsonl'], root)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'config: agent-trace-audit.yml: rules.retry-storm.bogus: unknown key\n',
    });
  });
});
