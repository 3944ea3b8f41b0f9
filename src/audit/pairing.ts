import type { ToolCall, ToolResult } from '../model/records.js';
import type { Run } from '../model/run.js';

export interface Pairing {
  /** Each call with its first result, in call order. */
  readonly pairs: ReadonlyArray<{ readonly call: ToolCall; readonly result: ToolResult }>;
  readonly orphans: readonly ToolCall[];
  readonly unmatched: readonly ToolResult[];
  /** Results beyond the first for a call id. */
  readonly extraResults: readonly ToolResult[];
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
  const first = new Map<string, ToolCall>();
  const anonymous: ToolCall[] = [];
  const paired = new Map<ToolCall, ToolResult>();
  const unmatched: ToolResult[] = [];
  const extraResults: ToolResult[] = [];
  for (const record of run.records) {
    if (record.kind === 'tool_call') {
      if (record.callId === null) anonymous.push(record);
      else if (!first.has(record.callId)) first.set(record.callId, record);
    } else if (record.kind === 'tool_result') {
      if (record.callId === null) {
        const at = anonymous.findIndex((call) => record.tool === null || call.tool === record.tool);
        if (at === -1) unmatched.push(record);
        else paired.set(anonymous.splice(at, 1)[0]!, record);
      } else {
        const call = first.get(record.callId);
        if (call === undefined) unmatched.push(record);
        else if (paired.has(call)) extraResults.push(record);
        else paired.set(call, record);
      }
    }
  }
  const pairs: Array<{ call: ToolCall; result: ToolResult }> = [];
  const orphans: ToolCall[] = [];
  for (const call of run.calls) {
    const result = paired.get(call);
    if (result) pairs.push({ call, result });
    else if (call.callId === null || first.get(call.callId) === call) orphans.push(call);
  }
  const pairing = { pairs, orphans, unmatched, extraResults };
  cache.set(run, pairing);
  return pairing;
}
