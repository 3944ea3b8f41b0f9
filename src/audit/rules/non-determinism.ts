import { z } from 'zod';
import type { ToolCall } from '../../model/records.js';
import { argsKey, callPlace, canonicalOrNull } from '../call-identity.js';
import { pairRun } from '../pairing.js';
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
  check(run, _ctx, report) {
    const first = new Map<string, { call: ToolCall; response: string }>();
    for (const { call, result } of pairRun(run).pairs) {
      const key = argsKey(call);
      const response = canonicalOrNull(result.content);
      if (key === null || response === null) continue;
      const seen = first.get(key);
      if (!seen) {
        first.set(key, { call, response });
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
