import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const receipt = (run: string, fieldPath: string, ruleId: string) => ({ run_id: run, field_path: fieldPath, rule_id: ruleId, original_len: 40, token: '[MASKED]' });

describe('redaction-policy-drift', () => {
  it('flags a field path redacted by another rule in a later run, once per run', async () => {
    const result = await auditFiles({
      'a.jsonl': jsonl(receipt('r1', 'result.env.GITHUB_TOKEN', 'github-token'), receipt('r1', 'args.password', 'password')),
      'b.jsonl': jsonl(
        receipt('r2', 'result.env.GITHUB_TOKEN', 'generic-secret'),
        receipt('r2', 'result.env.GITHUB_TOKEN', 'generic-secret'),
        receipt('r2', 'args.password', 'password'),
      ),
    });
    expect(findingsOf(result, 'redaction-policy-drift')).toEqual([
      { line: 1, callId: null, tool: null, runId: 'r2', message: "field_path 'result.env.GITHUB_TOKEN' redacted by rule 'generic-secret' here, by 'github-token' in run 'r1' (a.jsonl:1)" },
    ]);
  });

  it('reads receipts embedded in a record and compares runs within one file', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'r1', kind: 'tool_result', call_id: 'c', tool: 'env', redactions: [{ field_path: 'output.key', rule_id: 'aws-key' }] },
        { run_id: 'r2', kind: 'tool_result', call_id: 'c', tool: 'env', redactions: [{ field_path: 'output.key', rule_id: 'high-entropy' }] },
      ),
    });
    expect(findingsOf(result, 'redaction-policy-drift').map((f) => [f.line, f.message])).toEqual([
      [2, "field_path 'output.key' redacted by rule 'high-entropy' here, by 'aws-key' in run 'r1' (t.jsonl:1)"],
    ]);
  });

  it('does not flag the same rule across runs, or two rules within one run', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(receipt('r1', 'x', 'a'), receipt('r1', 'x', 'b'), receipt('r2', 'x', 'a'), receipt('r2', 'y', 'c')),
    });
    expect(findingsOf(result, 'redaction-policy-drift')).toEqual([]);
  });
});
