import { z } from 'zod';
import type { SourceLocation } from '../../model/records.js';
import { defineRule } from '../rule-types.js';

/** The first receipt seen for a field path: the rule id the later runs are compared with. */
interface Baseline {
  readonly ruleId: string;
  readonly run: string;
  readonly runLabel: string;
  readonly loc: SourceLocation;
}

interface State {
  /** field_path → the first receipt for it in the audit. */
  readonly baselines: Map<string, Baseline>;
  /** `run \0 field_path \0 rule_id` already reported. */
  readonly reported: Set<string>;
}

export const redactionPolicyDrift = defineRule({
  meta: {
    id: 'redaction-policy-drift',
    category: 'boundary',
    defaultSeverity: 'warning',
    summary: 'Redaction receipts for the same field path name another rule_id in another run: the redaction policy changed.',
    likelyCause: 'The redaction rules or their order changed between the runs (a deploy, a config edit), not the model.',
    nextAction: 'Check the redaction policy history before calling it a model regression; pin the policy version in the receipts.',
    options: z.strictObject({}),
  },
  init(): State {
    return { baselines: new Map(), reported: new Set() };
  },
  check(run, ctx, report) {
    const runKey = `${run.file}\u0000${run.runId ?? ''}`;
    const runLabel = run.runId === null ? `file '${run.file}'` : `run '${run.runId}'`;
    for (const receipt of run.redactions) {
      const baseline = ctx.state.baselines.get(receipt.fieldPath);
      if (baseline === undefined) {
        ctx.state.baselines.set(receipt.fieldPath, { ruleId: receipt.ruleId, run: runKey, runLabel, loc: receipt.loc });
        continue;
      }
      // Two rule ids within one run are not drift between runs.
      if (baseline.run === runKey || baseline.ruleId === receipt.ruleId) continue;
      const seen = `${runKey}\u0000${receipt.fieldPath}\u0000${receipt.ruleId}`;
      if (ctx.state.reported.has(seen)) continue;
      ctx.state.reported.add(seen);
      report({
        loc: receipt.loc,
        runId: run.runId,
        key: `${receipt.fieldPath}\u0000${receipt.ruleId}`,
        message:
          `field_path '${receipt.fieldPath}' redacted by rule '${receipt.ruleId}' here, ` +
          `by '${baseline.ruleId}' in ${baseline.runLabel} (${baseline.loc.file}:${baseline.loc.line})`,
      });
    }
  },
});
