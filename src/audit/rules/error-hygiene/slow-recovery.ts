import { z } from 'zod';
import type { HeldCall, HeldResult } from '../../../model/run.js';
import { pairRun } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';
import { isErrorResult } from '../../facts/error-result.js';

interface Episode {
  readonly call: HeldCall;
  readonly error: HeldResult;
  /** Index in the run's calls of the failing call. */
  readonly at: number;
}


export const slowRecovery = defineRule({
  meta: {
    id: 'slow-recovery',
    category: 'error-hygiene',
    defaultSeverity: 'warning',
    summary: 'After an error, the run needed many further calls before the same tool succeeded (or it never did).',
    likelyCause: 'The error body gives the caller nothing to correct: no stable code, no permitted values, no retry class, so the model guesses.',
    nextAction: 'Return a code, the permitted values and whether a retry can help; compare this distribution before and after the change.',
    options: z.strictObject({ threshold: z.number().int().min(0).default(2) }),
  },
  check(run, ctx, report) {
    // The pairs are in call order: one read position through them finds each call's result.
    const { pairs } = pairRun(run);
    let next = 0;
    const open = new Map<string, Episode>();
    const warn = (episode: Episode, message: string) =>
      report({ loc: episode.error.loc, runId: run.runId, callId: episode.call.callId, tool: episode.call.tool, message });
    const { threshold } = ctx.options;
    run.calls.forEach((call, i) => {
      const pair = pairs.at(next);
      if (pair === undefined || pair.call !== call) return;
      next += 1;
      const result = pair.result;
      const episode = open.get(call.tool);
      if (isErrorResult(result)) {
        // The first error of a streak opens the episode; retries that fail belong to it.
        if (!episode) open.set(call.tool, { call, error: result, at: i });
        return;
      }
      if (!episode) return;
      open.delete(call.tool);
      const attempts = i - episode.at;
      // Additive metrics (a histogram, so workers and shards can be summed); renderers derive median, p90, max.
      ctx.metric('attempts', { [String(attempts)]: 1 });
      if (attempts > threshold) warn(episode, `'${call.tool}' needed ${attempts} further calls to succeed after this error (threshold ${threshold})`);
    });
    for (const episode of [...open.values()].sort((a, b) => a.at - b.at)) {
      ctx.metric('unrecovered', 1);
      const further = run.calls.length - 1 - episode.at;
      if (further > threshold) warn(episode, `'${episode.call.tool}' never succeeded after this error: the run ended ${further} calls later (threshold ${threshold})`);
    }
  },
});
