import { z } from 'zod';
import type { ToolCall, ToolResult } from '../../model/records.js';
import { pairRun } from '../pairing.js';
import { defineRule } from '../rule-types.js';

interface Episode {
  readonly call: ToolCall;
  readonly error: ToolResult;
  /** Index in the run's calls of the failing call. */
  readonly at: number;
}

interface State {
  /** Further calls each recovered episode needed, across the audit. */
  readonly attempts: number[];
  unrecovered: number;
}

/** Nearest-rank percentile of sorted numbers (an observed value, never an interpolation). */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
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
  init: (): State => ({ attempts: [], unrecovered: 0 }),
  check(run, ctx, report) {
    const results = new Map<ToolCall, ToolResult>();
    for (const { call, result } of pairRun(run).pairs) results.set(call, result);
    const open = new Map<string, Episode>();
    const warn = (episode: Episode, message: string) =>
      report({ loc: episode.error.loc, runId: run.runId, callId: episode.call.callId, tool: episode.call.tool, message });
    const { threshold } = ctx.options;
    run.calls.forEach((call, i) => {
      const result = results.get(call);
      if (!result) return;
      const episode = open.get(call.tool);
      if (result.isError) {
        // The first error of a streak opens the episode; retries that fail belong to it.
        if (!episode) open.set(call.tool, { call, error: result, at: i });
        return;
      }
      if (!episode) return;
      open.delete(call.tool);
      const attempts = i - episode.at;
      ctx.state.attempts.push(attempts);
      if (attempts > threshold) warn(episode, `'${call.tool}' needed ${attempts} further calls to succeed after this error (threshold ${threshold})`);
    });
    for (const episode of [...open.values()].sort((a, b) => a.at - b.at)) {
      ctx.state.unrecovered++;
      const further = run.calls.length - 1 - episode.at;
      if (further > threshold) warn(episode, `'${episode.call.tool}' never succeeded after this error: the run ended ${further} calls later (threshold ${threshold})`);
    }
  },
  finish(ctx) {
    const sorted = [...ctx.state.attempts].sort((a, b) => a - b);
    const some = sorted.length > 0;
    ctx.metric('count', sorted.length);
    ctx.metric('median', some ? percentile(sorted, 0.5) : null);
    ctx.metric('p90', some ? percentile(sorted, 0.9) : null);
    ctx.metric('max', some ? sorted[sorted.length - 1]! : null);
    ctx.metric('unrecovered', ctx.state.unrecovered);
  },
});
