import { z } from 'zod';
import type { HeldResult } from '../../../model/run.js';
import { budgetMisses, formatMs } from '../../facts/deadlines.js';
import { pairRun } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';

export const lateResult = defineRule({
  meta: {
    id: 'late-result',
    category: 'pairing',
    defaultSeverity: 'warning',
    summary: "A result that arrived after its call's deadline had passed, or after the run's last llm span: the caller had moved on.",
    likelyCause: 'The caller stopped waiting (deadline or a model that went on) while the tool kept working and answered anyway.',
    nextAction: 'Tombstone the call id when the caller gives up, so a late answer is dropped and logged, not fed to the model.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    const reasons = new Map<HeldResult, string>();
    for (const { call, result, tookMs, deadlineMs } of budgetMisses(run)) {
      reasons.set(result, `${formatMs(tookMs - deadlineMs)} ms after the ${formatMs(deadlineMs)} ms deadline of its call at line ${call.loc.line}`);
    }
    let last = -1;
    for (let i = run.records.length - 1; i >= 0 && last === -1; i -= 1) if (run.records[i]!.kind === 'llm') last = i;
    if (last >= 0) {
      // Record order: the call went out before the model's last span, the result came after it.
      const line = run.records[last]!.loc.line;
      for (const { call, result, callAt, resultAt } of pairRun(run).pairs) {
        // A call on the last span's own line was made by that message: it is not left behind.
        if (callAt > last || resultAt < last || (line > 0 && call.loc.line === line)) continue;
        const why = `after the run's last llm span (line ${line}); the model finished without it`;
        const earlier = reasons.get(result);
        reasons.set(result, earlier ? `${earlier}, and ${why}` : why);
      }
    }
    const ordered = [...reasons.entries()].sort((a, b) => a[0].loc.line - b[0].loc.line);
    for (const [result, why] of ordered) {
      const id = result.callId === null ? '' : ` for call '${result.callId}'`;
      report({
        loc: result.loc,
        runId: run.runId,
        callId: result.callId,
        tool: result.tool,
        message: `result${id}${result.tool ? ` ('${result.tool}')` : ''} arrived ${why}`,
      });
    }
  },
});
