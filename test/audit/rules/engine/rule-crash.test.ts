import { describe, expect, it } from 'vitest';
import { RULES } from '../../../../src/audit/rules/index.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

describe('rule-crash', () => {
  it('turns a throwing rule into a finding and keeps the other rules running', async () => {
    const orphan = RULES.find((r) => r.meta.id === 'orphan-call')!;
    const original = orphan.check!;
    (orphan as { check: typeof original }).check = () => {
      throw new TypeError('boom at secret ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    };
    try {
      const result = await auditFiles({ 't.jsonl': jsonl({ run_id: 'r', kind: 'tool_result', call_id: 'x' }) });
      expect(findingsOf(result, 'rule-crash')).toEqual([
        {
          line: 1,
          runId: 'r',
          callId: null,
          tool: null,
          message: "rule 'orphan-call' crashed on this run (TypeError: boom at secret [REDACTED:github-token]); its findings for the run are missing",
        },
      ]);
      expect(findingsOf(result, 'unmatched-result').map((f) => f.callId)).toEqual(['x']);
    } finally {
      (orphan as { check: typeof original }).check = original;
    }
  });

  it('is silent when every rule runs', async () => {
    const result = await auditFiles({ 't.jsonl': jsonl({ run_id: 'r', kind: 'llm' }) });
    expect(findingsOf(result, 'rule-crash')).toEqual([]);
  });
});
