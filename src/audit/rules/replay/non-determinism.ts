import { z } from 'zod';
import type { HeldCall, HeldResult } from '../../../model/run.js';
import { argsKey, callPlace, responseKey } from '../../facts/call-identity.js';
import { failedCalls } from '../../facts/failed-calls.js';
import { pairRun } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';

export const nonDeterminism = defineRule({
  meta: {
    id: 'non-determinism',
    category: 'replay',
    defaultSeverity: 'warning',
    summary: 'An identical call (same tool, same canonical arguments) got a different response than the first time.',
    likelyCause: 'The tool depends on state or time the arguments do not capture (a changing index, a clock, randomness), or the world changed mid-run.',
    nextAction: 'Decide whether the agent may rely on this tool: pin its inputs (versions, seeds, snapshots) or treat its answers as volatile.',
    options: z.strictObject({}),
  },
  keeps: ['response-key'],
  check(run, ctx, report) {
    // A response is canonicalized only once its call repeats (most calls never do);
    // a first response with no canonical form gives its place to the next one.
    const first = new Map<string, { call: HeldCall; result: HeldResult; response?: string | null }>();
    // A failed attempt (an error, or an answer past its deadline) is not an answer to compare: its retry
    // is expected to differ (retry-storm, slow-recovery and budget-miss speak about it).
    const failed = failedCalls(run, ctx.memos);
    for (const { call, result } of pairRun(run).pairs) {
      const key = argsKey(call);
      if (key === null || !result.hasContent || failed.has(call)) continue;
      const seen = first.get(key);
      if (!seen) {
        first.set(key, { call, result });
        continue;
      }
      const response = responseKey(result);
      if (response === null) continue;
      if (seen.response === undefined) seen.response = responseKey(seen.result);
      if (seen.response === null) {
        first.set(key, { call, result, response });
        continue;
      }
      if (seen.response === response) continue;
      report({
        loc: result.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `tool '${call.tool}' returned a different response than the identical call at ${callPlace(seen.call)}`,
      });
    }
  },
});
