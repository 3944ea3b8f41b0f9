import type { HeldCall, Run } from '../../model/run.js';
import { budgetMisses } from './deadlines.js';
import { isErrorResult } from './error-result.js';
import type { RunMemos } from '../held/memo.js';
import { pairRun } from './pairing.js';

/** How a call ended when it did not succeed. */
export type Failure = 'error' | 'timeout' | 'no result';

const cache = new WeakMap<Run, ReadonlyMap<HeldCall, Failure>>();

/**
 * The calls of a run that did not succeed, and how: an error result (flagged,
 * or an error in its content: isErrorResult), a result later than the call's
 * deadline (a timeout on the caller's side), or no result at all. Repeating
 * such a call is a retry, not a redundant call. Memoized per run.
 */
export function failedCalls(run: Run, memos: RunMemos): ReadonlyMap<HeldCall, Failure> {
  const hit = cache.get(run);
  if (hit) return hit;
  const out = new Map<HeldCall, Failure>();
  const pairing = pairRun(run);
  for (const call of pairing.orphans) out.set(call, 'no result');
  for (const { call } of budgetMisses(run)) out.set(call, 'timeout');
  for (const { call, result } of pairing.pairs) if (isErrorResult(result)) out.set(call, 'error');
  cache.set(run, out);
  return out;
}
