import { z } from 'zod';
import { fingerprintKey } from '../../facts/call-identity.js';
import { PositionIndex } from '../../held/position-index.js';
import { defineRule } from '../rule-types.js';

const MAX_LINES_LISTED = 12;

export const retryStorm = defineRule({
  meta: {
    id: 'retry-storm',
    category: 'pairing',
    defaultSeverity: 'warning',
    summary: 'The same tool with the same arguments called N or more times in one run.',
    likelyCause: 'The agent loops on the same arguments (an error it cannot act on, or a result it does not accept).',
    nextAction: 'Add a per-run fingerprint cache (tool + canonical args hash) and stop or change course on a repeat.',
    options: z.strictObject({
      threshold: z.number().int().min(2).default(3).describe('How many identical calls in one run make a storm.'),
    }),
  },
  check(run, ctx, report) {
    // Each call's group is the first call with its key (a position, position-index.ts): no list is made
    // but for the groups that reach the threshold, and those only for the lines the message lists.
    const calls = run.calls;
    const { threshold } = ctx.options;
    const index = new PositionIndex((k) => fingerprintKey(calls[k]!)!, calls.length);
    const heads = new Int32Array(calls.length);
    const counts = new Int32Array(calls.length);
    for (let k = 0; k < calls.length; k += 1) {
      const key = fingerprintKey(calls[k]!);
      const earlier = key === null ? -2 : index.add(key, k);
      heads[k] = earlier === -1 ? k : earlier;
      if (earlier !== -2) counts[heads[k]!]! += 1;
    }
    const lines = new Map<number, number[]>();
    for (let k = 0; k < calls.length; k += 1) {
      const head = heads[k]!;
      if (head < 0 || counts[head]! < threshold) continue;
      const listed = lines.get(head);
      if (listed === undefined) lines.set(head, [calls[k]!.loc.line]);
      else if (listed.length < MAX_LINES_LISTED) listed.push(calls[k]!.loc.line);
    }
    for (const [head, listed] of lines) {
      const first = calls[head]!;
      const count = counts[head]!;
      const more = count > MAX_LINES_LISTED ? `, … ${count - MAX_LINES_LISTED} more` : '';
      report({
        loc: first.loc,
        runId: run.runId,
        callId: first.callId,
        tool: first.tool,
        message: `tool '${first.tool}' was called ${count} times with identical arguments in this run (lines ${listed.join(', ')}${more})`,
      });
    }
  },
});
