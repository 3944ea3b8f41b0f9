import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_ARTIFACTS_MAX_COUNT, DEFAULT_ARTIFACTS_MAX_MB, readArtifactInputs } from '../../../src/github/artifacts/artifact-inputs.js';
import { readInputs } from '../../../src/github/inputs.js';

const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('readArtifactInputs', () => {
  it('reads name globs one per line, the run, the repository, the fork switch and the caps', () => {
    expect(
      readArtifactInputs(
        reader({ artifacts: 'agent-traces-*\n\n  eval-?  \n', 'artifacts-run-id': '123456', 'artifacts-repository': 'octo-org/agent-app', 'artifacts-allow-fork': 'TRUE', 'artifacts-max-count': '3', 'artifacts-max-mb': '10' }),
      ),
    ).toEqual({ artifacts: ['agent-traces-*', 'eval-?'], artifactsRunId: 123456, artifactsRepository: 'octo-org/agent-app', artifactsAllowFork: true, artifactsMaxCount: 3, artifactsMaxMb: 10 });
  });

  it('empty traces means **/*.jsonl, or no workspace files when artifacts is set', () => {
    expect(readInputs(reader({})).traces).toEqual(['**/*.jsonl']);
    expect(readInputs(reader({ artifacts: 'agent-traces-*' })).traces).toEqual([]);
    expect(readInputs(reader({ artifacts: 'agent-traces-*', traces: 'local/*.jsonl' })).traces).toEqual(['local/*.jsonl']);
  });

  it('refuses invalid values with the input named', () => {
    expect(() => readArtifactInputs(reader({ 'artifacts-run-id': 'latest' }))).toThrow('input artifacts-run-id must be a workflow run id (a number), not "latest"');
    expect(() => readArtifactInputs(reader({ 'artifacts-repository': 'octo-org' }))).toThrow('input artifacts-repository must be owner/repo, not "octo-org"');
    expect(() => readArtifactInputs(reader({ 'artifacts-allow-fork': 'yes' }))).toThrow('input artifacts-allow-fork must be true or false, not "yes"');
    expect(() => readArtifactInputs(reader({ 'artifacts-max-count': '0' }))).toThrow('input artifacts-max-count must be a whole number above 0, not "0"');
    expect(() => readArtifactInputs(reader({ 'artifacts-max-mb': '1.5' }))).toThrow('input artifacts-max-mb must be a whole number above 0, not "1.5"');
  });

  it('action.yml and docs/action.md state the same defaults as the code', () => {
    const inputs = (parseYaml(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { default?: string }> }).inputs;
    const docs = readFileSync('docs/action.md', 'utf8');
    const expected: Record<string, string> = {
      artifacts: '',
      'artifacts-run-id': '',
      'artifacts-repository': '',
      'artifacts-allow-fork': 'false',
      'artifacts-max-count': String(DEFAULT_ARTIFACTS_MAX_COUNT),
      'artifacts-max-mb': String(DEFAULT_ARTIFACTS_MAX_MB),
    };
    for (const [name, value] of Object.entries(expected)) {
      expect(inputs[name]?.default).toBe(value);
      expect(docs).toContain(`| \`${name}\` |`);
    }
    expect(docs).toContain('| `artifacts-max-count` | `50` |');
    expect(docs).toContain('| `artifacts-max-mb` | `1024` |');
  });
});
