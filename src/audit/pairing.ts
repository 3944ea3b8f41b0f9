import type { HeldCall, HeldResult, Run } from '../model/run.js';

/** A call and its first result, with their positions in the run's records (record order is time order). */
export interface Pair {
  readonly call: HeldCall;
  readonly result: HeldResult;
  readonly callAt: number;
  readonly resultAt: number;
}

export interface Pairing {
  /** Each call with its first result, in call order. */
  readonly pairs: readonly Pair[];
  readonly orphans: readonly HeldCall[];
  /** The position in the run's records of each orphan (same order as `orphans`). */
  readonly orphanPositions: readonly number[];
  readonly unmatched: readonly HeldResult[];
  /** Results beyond the first for a call id. */
  readonly extraResults: readonly HeldResult[];
  /** Calls whose id an earlier call of the run already used, each with that earlier call, in call order. */
  readonly reusedIds: ReadonlyArray<{ readonly call: HeldCall; readonly earlier: HeldCall }>;
}

const cache = new WeakMap<Run, Pairing>();

/**
 * Pairs calls with results inside one run: by call id where there is one
 * (the first call with an id takes its first result; a result counts for a call
 * only when it comes after it), and calls without an id with the next id-less
 * result of the same tool. Memoized per run, so every pairing rule shares one pass.
 */
export function pairRun(run: Run): Pairing {
  const hit = cache.get(run);
  if (hit) return hit;
  // The first call of each id; never deleted from (a Map that shrinks as results
  // arrive rehashes over and over): a call is answered once it is in `paired`.
  const first = new Map<string, HeldCall>();
  const anonymous = new IdlessCalls();
  // Each answered call and the position of its result in the run's records.
  const paired = new Map<HeldCall, number>();
  const unmatched: HeldResult[] = [];
  const extraResults: HeldResult[] = [];
  const reusedIds: Array<{ call: HeldCall; earlier: HeldCall }> = [];
  const records = run.records;
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i]!;
    if (record.kind === 'tool_call') {
      if (record.callId === null) anonymous.add(record);
      else {
        const earlier = first.get(record.callId);
        if (earlier === undefined) first.set(record.callId, record);
        else reusedIds.push({ call: record, earlier });
      }
    } else if (record.kind === 'tool_result') {
      if (record.callId === null) {
        const call = anonymous.take(record.tool);
        if (call === null) unmatched.push(record);
        else paired.set(call, i);
      } else {
        const call = first.get(record.callId);
        if (call === undefined) unmatched.push(record);
        else if (paired.has(call)) extraResults.push(record);
        else paired.set(call, i);
      }
    }
  }
  const pairs: Pair[] = [];
  const orphans: HeldCall[] = [];
  const orphanPositions: number[] = [];
  for (let i = 0; i < records.length; i += 1) {
    const call = records[i]!;
    if (call.kind !== 'tool_call') continue;
    const at = paired.get(call);
    if (at !== undefined) pairs.push({ call, result: records[at] as HeldResult, callAt: i, resultAt: at });
    else if (call.callId === null || first.get(call.callId) === call) {
      orphans.push(call);
      orphanPositions.push(i);
    }
  }
  const pairing = { pairs, orphans, orphanPositions, unmatched, extraResults, reusedIds };
  cache.set(run, pairing);
  return pairing;
}

/**
 * Calls without an id, waiting for an id-less result: a result takes the earliest
 * waiting call of its tool (of any tool when it names none). One queue per tool and
 * one for all, each with a read position past the calls already taken: linear in
 * the run, where searching and splicing one list was quadratic.
 */
class IdlessCalls {
  private readonly calls: HeldCall[] = [];
  private readonly taken: boolean[] = [];
  private next = 0;
  private readonly byTool = new Map<string, { readonly at: number[]; next: number }>();

  add(call: HeldCall): void {
    const queue = this.byTool.get(call.tool);
    if (queue) queue.at.push(this.calls.length);
    else this.byTool.set(call.tool, { at: [this.calls.length], next: 0 });
    this.calls.push(call);
    this.taken.push(false);
  }

  /** The earliest waiting call of `tool` (any tool for null), now taken; null when none waits. */
  take(tool: string | null): HeldCall | null {
    if (tool === null) {
      while (this.next < this.calls.length && this.taken[this.next]) this.next += 1;
      return this.claim(this.next);
    }
    const queue = this.byTool.get(tool);
    if (!queue) return null;
    while (queue.next < queue.at.length && this.taken[queue.at[queue.next]!]) queue.next += 1;
    return queue.next < queue.at.length ? this.claim(queue.at[queue.next]!) : null;
  }

  private claim(at: number): HeldCall | null {
    if (at >= this.calls.length) return null;
    this.taken[at] = true;
    return this.calls[at]!;
  }
}
