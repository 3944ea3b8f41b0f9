import { z } from 'zod';
import type { BlockedSpan } from '../../../model/records.js';
import type { HeldCall, Run } from '../../../model/run.js';
import { pairRun } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';

export const orphanCall = defineRule({
  meta: {
    id: 'orphan-call',
    category: 'pairing',
    defaultSeverity: 'error',
    summary: 'A tool call that never got a result: it looks like a hang.',
    likelyCause: 'With later llm spans: the model continued without the result. With none: the tool process blocked or crashed.',
    nextAction: 'With later llm spans: gate generation on the tool result. With none: inspect the tool runtime, not the prompt.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    const { orphans, orphanPositions } = pairRun(run);
    if (orphans.length === 0) return;
    // Record order is time order in every parser; lines are not (a whole-document
    // format puts many records on one line). lastLlm = position of the run's last llm span.
    let lastLlm = -1;
    for (let i = run.records.length - 1; i >= 0 && lastLlm === -1; i -= 1) if (run.records[i]!.kind === 'llm') lastLlm = i;
    const waited = waitedOn(run, orphans, orphanPositions);
    orphans.forEach((call, k) => {
      const at = orphanPositions[k]!;
      const later = lastLlm > at;
      const blocked = waited.get(call);
      // A blocked_on span naming the call (or naming none) after it: the runtime held generation and waited.
      const cause = later
        ? 'the model kept generating afterwards'
        : blocked !== undefined
          ? `the run waited for it (blocked_on at line ${blocked.loc.line}) and no result arrived: a tool stall`
          : at < run.records.length - 1
            ? 'the run went on without it, with no llm span after it'
            : 'nothing followed it in the run';
      const id = call.callId === null ? 'without a call id' : `'${call.callId}'`;
      report({
        loc: call.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `call ${id} to '${call.tool}' has no result (${cause})`,
      });
    });
  },
});

/** For each orphan, the first blocked_on span after it that names it (or names no call). */
function waitedOn(run: Run, orphans: readonly HeldCall[], positions: readonly number[]): Map<HeldCall, BlockedSpan> {
  const out = new Map<HeldCall, BlockedSpan>();
  // Positions in record order, so each list is sorted: one binary search per orphan.
  const named = new Map<string, number[]>();
  const anyCall: number[] = [];
  run.records.forEach((record, at) => {
    if (record.kind !== 'blocked_on') return;
    if (record.callIds.length === 0) anyCall.push(at);
    for (const id of record.callIds) {
      const list = named.get(id);
      if (list === undefined) named.set(id, [at]);
      else if (list[list.length - 1] !== at) list.push(at);
    }
  });
  if (named.size === 0 && anyCall.length === 0) return out;
  orphans.forEach((call, k) => {
    const after = positions[k]!;
    const a = firstAfter(anyCall, after);
    const b = call.callId === null ? -1 : firstAfter(named.get(call.callId) ?? [], after);
    const at = a === -1 ? b : b === -1 ? a : Math.min(a, b);
    if (at !== -1) out.set(call, run.records[at] as BlockedSpan);
  });
  return out;
}

/** The first value in a sorted list greater than `after`, or -1. */
function firstAfter(sorted: readonly number[], after: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! > after) hi = mid;
    else lo = mid + 1;
  }
  return lo < sorted.length ? sorted[lo]! : -1;
}
