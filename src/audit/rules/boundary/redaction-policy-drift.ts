import { z } from 'zod';
import type { SourceLocation } from '../../../model/records.js';
import { compareLocations } from '../../findings/findings.js';
import { defineRule } from '../rule-types.js';

/** One receipt: which rule redacted the field, in which run, where. */
interface Seen {
  readonly ruleId: string;
  readonly run: string;
  readonly runId: string | null;
  readonly runLabel: string;
  readonly loc: SourceLocation;
}

/** field_path → every receipt for it. Plain data, so worker states can be joined. */
type State = Map<string, Seen[]>;

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
  init: (): State => new Map(),
  check(run, ctx) {
    const runKey = `${run.file}\u0000${run.runId ?? ''}`;
    const runLabel = run.runId === null ? `file '${run.file}'` : `run '${run.runId}'`;
    for (const receipt of run.redactions) {
      const list = ctx.state.get(receipt.fieldPath) ?? [];
      list.push({ ruleId: receipt.ruleId, run: runKey, runId: run.runId, runLabel, loc: receipt.loc });
      ctx.state.set(receipt.fieldPath, list);
    }
  },
  merge(a, b) {
    const out: State = new Map(a);
    for (const [path, list] of b) out.set(path, [...(out.get(path) ?? []), ...list]);
    return out;
  },
  /** The first receipt of a field path (file and line order) is the baseline; another run with another rule id drifted. */
  finish(ctx, report) {
    for (const fieldPath of [...ctx.state.keys()].sort()) {
      const receipts = [...ctx.state.get(fieldPath)!].sort((a, b) => compareLocations(a.loc, b.loc));
      const baseline = receipts[0]!;
      const reported = new Set<string>();
      for (const receipt of receipts.slice(1)) {
        // Two rule ids within one run are not drift between runs.
        if (receipt.run === baseline.run || receipt.ruleId === baseline.ruleId) continue;
        const seen = `${receipt.run}\u0000${receipt.ruleId}`;
        if (reported.has(seen)) continue;
        reported.add(seen);
        report({
          loc: receipt.loc,
          runId: receipt.runId,
          key: `${fieldPath}\u0000${receipt.ruleId}`,
          message:
            `field_path '${fieldPath}' redacted by rule '${receipt.ruleId}' here, ` +
            `by '${baseline.ruleId}' in ${baseline.runLabel} (${baseline.loc.file}:${baseline.loc.line})`,
        });
      }
    }
  },
});
