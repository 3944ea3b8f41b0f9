import { z } from 'zod';
import { pairRun } from '../pairing.js';
import { defineRule } from '../rule-types.js';

export const unmatchedResult = defineRule({
  meta: {
    id: 'unmatched-result',
    category: 'pairing',
    defaultSeverity: 'error',
    summary: 'A tool result whose call id was never issued in its run.',
    likelyCause: 'A duplicate worker, records shipped out of order, or two trace files mixed into one.',
    nextAction: 'Check call id allocation and log order; give each run its own run_id.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    const { unmatched } = pairRun(run);
    for (const result of unmatched) {
      const id = result.callId === null ? 'without a call id' : `for call id '${result.callId}'`;
      report({
        loc: result.loc,
        runId: run.runId,
        callId: result.callId,
        tool: result.tool,
        message: `result ${id}${result.tool ? ` ('${result.tool}')` : ''} has no matching call in this run`,
      });
    }
  },
});
