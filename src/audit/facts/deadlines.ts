import type { HeldCall, HeldResult, Run } from '../../model/run.js';
import { pairRun } from './pairing.js';

export interface BudgetMiss {
  readonly call: HeldCall;
  readonly result: HeldResult;
  /** Result ts minus call ts, in milliseconds. */
  readonly tookMs: number;
  readonly deadlineMs: number;
}

/** Paired calls with a deadline whose result came later than it (both timestamps known). */
export function budgetMisses(run: Run): BudgetMiss[] {
  const out: BudgetMiss[] = [];
  for (const { call, result } of pairRun(run).pairs) {
    if (call.deadlineMs === null || call.ts === null || result.ts === null) continue;
    const tookMs = result.ts - call.ts;
    if (tookMs > call.deadlineMs) out.push({ call, result, tookMs, deadlineMs: call.deadlineMs });
  }
  return out;
}

/** Milliseconds for a message: whole numbers as they are, fractions to one decimal. */
export function formatMs(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(1);
}
