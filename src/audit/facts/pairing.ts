import type { HeldCall, HeldRecord, HeldResult, Run } from '../../model/run.js';
import { PositionIndex } from '../held/position-index.js';

/** A call and its first result, with their positions in the run's records (record order is time order). */
export interface Pair {
  readonly call: HeldCall;
  readonly result: HeldResult;
  readonly callAt: number;
  readonly resultAt: number;
}

/**
 * The pairs of a run, held as two columns of record positions (8 bytes a pair, not
 * an object each): `at(k)` and iteration make each Pair when it is read, from the
 * run's records, so `pair.call` is the run's own call object.
 */
export class PairList implements Iterable<Pair> {
  constructor(
    private readonly records: readonly HeldRecord[],
    private readonly callAts: Int32Array,
    private readonly resultAts: Int32Array,
    readonly length: number,
  ) {}

  at(k: number): Pair | undefined {
    if (k < 0 || k >= this.length) return undefined;
    const callAt = this.callAts[k]!;
    const resultAt = this.resultAts[k]!;
    return { call: this.records[callAt] as HeldCall, result: this.records[resultAt] as HeldResult, callAt, resultAt };
  }

  [Symbol.iterator](): Iterator<Pair> {
    let k = 0;
    return { next: (): IteratorResult<Pair> => (k < this.length ? { value: this.at(k++)!, done: false } : { value: undefined, done: true }) };
  }

  map<T>(f: (pair: Pair, k: number) => T): T[] {
    const out: T[] = [];
    for (let k = 0; k < this.length; k += 1) out.push(f(this.at(k)!, k));
    return out;
  }
}

export interface Pairing {
  /** Each call with its first result, in call order. */
  readonly pairs: PairList;
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
 * Calls are tracked by their position in the run's records (a number, not a Map
 * entry per call object, position-index.ts), so the pass holds a few bytes per call.
 */
export function pairRun(run: Run): Pairing {
  const hit = cache.get(run);
  if (hit) return hit;
  const records = run.records;
  // The position of the first call of each id; never deleted from: a call is answered once resultOf has it.
  const first = new PositionIndex((at) => (records[at] as HeldCall).callId!, run.calls.length);
  const anonymous = new IdlessCalls();
  // For each call's position, the position of its result (-1: none yet).
  const resultOf = new Int32Array(records.length).fill(-1);
  const unmatched: HeldResult[] = [];
  const extraResults: HeldResult[] = [];
  const reusedIds: Array<{ call: HeldCall; earlier: HeldCall }> = [];
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i]!;
    if (record.kind === 'tool_call') {
      if (record.callId === null) anonymous.add(i, record.tool);
      else {
        const earlier = first.add(record.callId, i);
        if (earlier !== -1) reusedIds.push({ call: record, earlier: records[earlier] as HeldCall });
      }
    } else if (record.kind === 'tool_result') {
      const at = record.callId === null ? anonymous.take(record.tool) : first.get(record.callId);
      if (at === -1) unmatched.push(record);
      else if (resultOf[at]! !== -1) extraResults.push(record);
      else resultOf[at] = i;
    }
  }
  const pairing = { ...settle(run, first, resultOf), unmatched, extraResults, reusedIds };
  cache.set(run, pairing);
  return pairing;
}

/** The pairs in call order, and the calls that got no result (the first call of an id, or an id-less one). */
function settle(run: Run, first: PositionIndex, resultOf: Int32Array): Pick<Pairing, 'pairs' | 'orphans' | 'orphanPositions'> {
  const records = run.records;
  const callAts = new Int32Array(run.calls.length);
  const resultAts = new Int32Array(run.calls.length);
  let k = 0;
  const orphans: HeldCall[] = [];
  const orphanPositions: number[] = [];
  for (let i = 0; i < records.length; i += 1) {
    const call = records[i]!;
    if (call.kind !== 'tool_call') continue;
    const at = resultOf[i]!;
    if (at !== -1) {
      callAts[k] = i;
      resultAts[k] = at;
      k += 1;
    } else if (call.callId === null || first.get(call.callId) === i) {
      orphans.push(call);
      orphanPositions.push(i);
    }
  }
  return { pairs: new PairList(records, callAts, resultAts, k), orphans, orphanPositions };
}

/**
 * Calls without an id, waiting for an id-less result: a result takes the earliest
 * waiting call of its tool (of any tool when it names none). One queue per tool and
 * one for all, each with a read position past the calls already taken: linear in
 * the run, where searching and splicing one list was quadratic.
 */
class IdlessCalls {
  /** The waiting calls' positions in the run's records, in order. */
  private readonly calls: number[] = [];
  private readonly taken: boolean[] = [];
  private next = 0;
  private readonly byTool = new Map<string, { readonly at: number[]; next: number }>();

  add(position: number, tool: string): void {
    const queue = this.byTool.get(tool);
    if (queue) queue.at.push(this.calls.length);
    else this.byTool.set(tool, { at: [this.calls.length], next: 0 });
    this.calls.push(position);
    this.taken.push(false);
  }

  /** The position of the earliest waiting call of `tool` (any tool for null), now taken; -1 when none waits. */
  take(tool: string | null): number {
    if (tool === null) {
      while (this.next < this.calls.length && this.taken[this.next]) this.next += 1;
      return this.claim(this.next);
    }
    const queue = this.byTool.get(tool);
    if (!queue) return -1;
    while (queue.next < queue.at.length && this.taken[queue.at[queue.next]!]) queue.next += 1;
    return queue.next < queue.at.length ? this.claim(queue.at[queue.next]!) : -1;
  }

  private claim(at: number): number {
    if (at >= this.calls.length) return -1;
    this.taken[at] = true;
    return this.calls[at]!;
  }
}
