import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/config.js';
import { auditPaths, isFailing, materializeOutcome } from '../src/core.js';
import type { Logger } from '../src/logger.js';
import { jsonl, tempTree } from './helpers.js';

const quiet: Logger = { info() {}, warning() {}, error() {}, debug() {} };

describe('isFailing', () => {
  const summary = (error: number, warning: number, note: number) => ({ summary: { files: 1, runs: 1, toolCalls: 1, toolResults: 0, findings: { error, warning, note } } });

  it('reads the summary counts: a warning fails at warning and note, not at error or never', () => {
    const warned = summary(0, 1, 0);
    expect([isFailing(warned, 'error'), isFailing(warned, 'warning'), isFailing(warned, 'note'), isFailing(warned, 'never')]).toEqual([false, true, true, false]);
    const clean = summary(0, 0, 0);
    expect([isFailing(clean, 'note'), isFailing(summary(0, 0, 2), 'note'), isFailing(summary(0, 0, 2), 'warning'), isFailing(summary(3, 0, 0), 'error')]).toEqual([false, true, false, true]);
  });

  it('judges an audit as its materialized report would be judged', async () => {
    // Two orphan calls: errors by default.
    const root = tempTree({ 'a.jsonl': jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'grep' }, { run_id: 'r', kind: 'tool_call', call_id: 'c2', tool: 'grep' }) });
    for (const failOn of ['error', 'never'] as const) {
      const outcome = await auditPaths({ paths: ['a.jsonl'], root, config: resolveConfig({ 'fail-on': failOn }), strictPaths: true }, quiet);
      const { report, result } = materializeOutcome(outcome);
      expect(report.findings).toBe(result.findings);
      expect(report.findings.filter((f) => f.ruleId === 'orphan-call')).toHaveLength(2);
      expect(report.summary.findings.error).toBe(report.findings.filter((f) => f.severity === 'error').length);
      expect(outcome.failed).toBe(failOn === 'error');
      expect(isFailing(report, failOn)).toBe(outcome.failed);
    }
  });
});
