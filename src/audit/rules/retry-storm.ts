import { z } from 'zod';
import type { HeldCall } from '../../model/run.js';
import { fingerprintKey } from '../call-identity.js';
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
    // A call seen once stays a call (most are); a list is made on its first repeat.
    const groups = new Map<string, HeldCall | HeldCall[]>();
    for (const call of run.calls) {
      const key = fingerprintKey(call);
      if (key === null) continue;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, call);
      else if (Array.isArray(group)) group.push(call);
      else groups.set(key, [group, call]);
    }
    for (const calls of groups.values()) {
      if (!Array.isArray(calls) || calls.length < ctx.options.threshold) continue;
      const first = calls[0]!;
      const lines = calls.slice(0, MAX_LINES_LISTED).map((call) => call.loc.line);
      const more = calls.length > MAX_LINES_LISTED ? `, … ${calls.length - MAX_LINES_LISTED} more` : '';
      report({
        loc: first.loc,
        runId: run.runId,
        callId: first.callId,
        tool: first.tool,
        message: `tool '${first.tool}' was called ${calls.length} times with identical arguments in this run (lines ${lines.join(', ')}${more})`,
      });
    }
  },
});
