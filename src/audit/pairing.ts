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
  const open = new Map<string, ToolCall>();
  const seen = new Set<string>();
  const anonymous: ToolCall[] = [];
  const paired = new Map<ToolCall, ToolResult>();
  const unmatched: ToolResult[] = [];
  const extraResults: ToolResult[] = [];
  for (const record of run.records) {
    if (record.kind === 'tool_call') {
      if (record.callId === null) anonymous.push(record);
      else if (!seen.has(record.callId)) {
        seen.add(record.callId);
        open.set(record.callId, record);
      }
    } else if (record.kind === 'tool_result') {
      if (record.callId === null) {
        const at = anonymous.findIndex((call) => record.tool === null || call.tool === record.tool);
        if (at === -1) unmatched.push(record);
        else paired.set(anonymous.splice(at, 1)[0]!, record);
      } else {
        const call = open.get(record.callId);
        if (call) {
          open.delete(record.callId);
          paired.set(call, record);
        } else if (seen.has(record.callId)) extraResults.push(record);
        else unmatched.push(record);
      }
    }
  }
  const pairs: Array<{ call: ToolCall; result: ToolResult }> = [];
  const orphans: ToolCall[] = [];
  for (const call of run.calls) {
    const result = paired.get(call);
    if (result) pairs.push({ call, result });
    else if (call.callId === null || open.get(call.callId) === call) orphans.push(call);
  }
  const pairing = { pairs, orphans, unmatched, extraResults };
  cache.set(run, pairing);
  return pairing;
}
