import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/github/inputs.js';

const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('readInputs', () => {
  it('applies the documented defaults when inputs are empty', () => {
    expect(readInputs(reader({}))).toEqual({
      traces: ['**/*.jsonl'],
      config: '',
      failOn: undefined,
      comment: undefined,
      commentMode: 'always',
      summary: true,
      annotations: true,
      maxAnnotations: 8,
      seal: true,
      upload: true,
      artifactName: 'agent-trace-audit',
      retentionDays: undefined,
      baseline: { kind: 'auto' },
      baselineRuns: 5,
      shard: '',
      name: '',
      mode: 'audit',
      sarifFile: '',
      failOnEmpty: true,
      gate: undefined,
      sealRedact: undefined,
      inputFormat: '',
      listenPort: '4318',
      token: '',
      artifacts: [],
      artifactsRunId: undefined,
      artifactsRepository: '',
      artifactsAllowFork: false,
      artifactsMaxCount: 50,
      artifactsMaxMb: 1024,
      checkRun: 'auto',
      checkRunMaxAnnotations: 1000,
    });
  });

  it('check-run: auto or off, and a cap on its annotations from 0 to 5000', () => {
    expect(readInputs(reader({ 'check-run': 'off', 'check-run-max-annotations': '0' }))).toMatchObject({ checkRun: 'off', checkRunMaxAnnotations: 0 });
    expect(readInputs(reader({ 'check-run-max-annotations': '5000' })).checkRunMaxAnnotations).toBe(5000);
    expect(() => readInputs(reader({ 'check-run': 'on' }))).toThrow('input check-run must be one of auto, off, not "on"');
    expect(() => readInputs(reader({ 'check-run-max-annotations': '5001' }))).toThrow('input check-run-max-annotations must be a whole number from 0 to 5000, not "5001"');
    expect(() => readInputs(reader({ 'check-run-max-annotations': '-1' }))).toThrow('input check-run-max-annotations must be a whole number from 0 to 5000, not "-1"');
  });

  it('parses every kind of value', () => {
    const inputs = readInputs(
      reader({ traces: 'a/**/*.jsonl\n\n  b.jsonl  \n', 'fail-on': 'warning', comment: 'FALSE', 'comment-mode': 'on-findings', 'retention-days': '7', baseline: 'file:ci/baseline.json', mode: 'merge', 'fail-on-empty': 'true', 'max-annotations': '3' }),
    );
    expect(inputs).toMatchObject({ traces: ['a/**/*.jsonl', 'b.jsonl'], failOn: 'warning', comment: false, commentMode: 'on-findings', retentionDays: 7, baseline: { kind: 'file', path: 'ci/baseline.json' }, mode: 'merge', failOnEmpty: true, maxAnnotations: 3 });
  });

  it('refuses invalid values with the input named', () => {
    expect(() => readInputs(reader({ 'fail-on': 'fatal' }))).toThrow('input fail-on must be one of error, warning, note, never, not "fatal"');
    expect(() => readInputs(reader({ summary: 'yes' }))).toThrow('input summary must be true or false, not "yes"');
    expect(() => readInputs(reader({ mode: 'report' }))).toThrow('input mode must be one of audit, merge, publish, listen, not "report"');
    expect(() => readInputs(reader({ baseline: 'file:' }))).toThrow('input baseline must be auto, artifact, off or file:<path>, not "file:"');
    expect(() => readInputs(reader({ 'retention-days': '-1' }))).toThrow('input retention-days must be a whole number of days, not "-1"');
    expect(() => readInputs(reader({ 'max-annotations': '11' }))).toThrow('input max-annotations must be a whole number from 0 to 10 (GitHub shows 10 per level per step), not "11"');
  });
});
