import { z } from 'zod';
import type { HeldCall } from '../../../model/run.js';
import { argsKey, callPlace } from '../../facts/call-identity.js';
import { failedCalls } from '../../facts/failed-calls.js';
import { defineRule } from '../rule-types.js';

export const DEFAULT_MUTATORS = ['write_file', 'delete_file', 'create_file', 'move_file', 'run_command'];

export const redundantCall = defineRule({
  meta: {
    id: 'redundant-call',
    category: 'replay',
    defaultSeverity: 'note',
    summary: 'An identical call repeated with no possible state change in between.',
    likelyCause: 'The agent lost track of what it already knows (context trimmed, no memory of earlier results) and asks again.',
    nextAction: 'Keep earlier results in context or cache read-only calls per run; check why the agent re-asked.',
    options: z.strictObject({
      mutators: z
        .array(z.string())
        .default(DEFAULT_MUTATORS)
        .describe('Tools that may change state: repeating one of them is never redundant. Exact, case-sensitive names.'),
    }),
  },
  init(options) {
    return new Set(options.mutators);
  },
  check(run, ctx, report) {
    // Any different call in between may have changed state, so only back-to-back identical calls count.
    // A repeat of a call that ended in an error, a timeout or no result is a retry
    // (retry-storm and slow-recovery speak about those), not a redundant call.
    const failed = failedCalls(run, ctx.memos);
    let previous: { call: HeldCall; key: string | null } | null = null;
    for (const call of run.calls) {
      const key = argsKey(call);
      if (previous !== null && key !== null && key === previous.key && !ctx.state.has(call.tool) && !failed.has(previous.call)) {
        report({
          loc: call.loc,
          runId: run.runId,
          callId: call.callId,
          tool: call.tool,
          message: `tool '${call.tool}' repeats the identical call at ${callPlace(previous.call)} with no state change between them`,
        });
      }
      previous = { call, key };
    }
  },
});
