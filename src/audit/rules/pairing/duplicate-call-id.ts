import { z } from 'zod';
import { pairRun } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';

export const duplicateCallId = defineRule({
  meta: {
    id: 'duplicate-call-id',
    category: 'pairing',
    defaultSeverity: 'error',
    summary: 'Two tool calls in one run share a call id, so results cannot be paired with certainty.',
    likelyCause: 'Call ids reused across retries or parallel calls (a counter reset, or an id derived from the tool name).',
    nextAction: 'Allocate a fresh call id per call and namespace ids with the run id.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    // The pairing already met every call id once: it lists the calls that reuse one.
    for (const { call, earlier } of pairRun(run).reusedIds) {
      report({
        loc: call.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `call id '${call.callId}' ('${call.tool}') was already used by the call to '${earlier.tool}' at line ${earlier.loc.line} in this run`,
      });
    }
  },
});
