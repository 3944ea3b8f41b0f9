import { z } from 'zod';
import type { ToolCall } from '../../model/records.js';
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
    const first = new Map<string, ToolCall>();
    for (const call of run.calls) {
      if (call.callId === null) continue;
      const earlier = first.get(call.callId);
      if (!earlier) {
        first.set(call.callId, call);
        continue;
      }
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
