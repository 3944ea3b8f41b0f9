import { z } from 'zod';
import { budgetMisses, formatMs } from '../../facts/deadlines.js';
import { defineRule } from '../rule-types.js';

export const budgetMiss = defineRule({
  meta: {
    id: 'budget-miss',
    category: 'pairing',
    defaultSeverity: 'warning',
    summary: "A call whose result came later than the call's deadline_ms.",
    likelyCause: 'http_status >= 500: an upstream fault, not a model stall. No http_status: the tool stalled or the deadline is too tight.',
    nextAction: 'Upstream fault: retry with jitter; do not rewrite prompts. Otherwise: split the tool or raise that span\'s deadline only.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    for (const { call, result, tookMs, deadlineMs } of budgetMisses(run)) {
      const status = result.httpStatus;
      const cause =
        status !== null && status >= 500
          ? `http_status ${status}: upstream fault, not a model stall; retry with jitter`
          : status === null
            ? 'no http_status: tool stall or too tight a deadline'
            : `http_status ${status}: tool stall or too tight a deadline`;
      const id = call.callId === null ? '' : ` '${call.callId}'`;
      report({
        loc: call.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `call${id} to '${call.tool}' took ${formatMs(tookMs)} ms against a deadline of ${formatMs(deadlineMs)} ms (result at line ${result.loc.line}; ${cause})`,
      });
    }
  },
});
