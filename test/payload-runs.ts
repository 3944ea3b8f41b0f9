import type { ToolCall, ToolResult, TraceRecord } from '../src/model/records.js';
import type { HeldCall, HeldResult, Run } from '../src/model/run.js';

/** A run with its calls' and results' payloads put back (runs hold none): what format tests assert on. */
export type PayloadRun = Omit<Run, 'calls' | 'results'> & {
  readonly calls: ReadonlyArray<HeldCall & ToolCall>;
  readonly results: ReadonlyArray<HeldResult & ToolResult>;
};

/**
 * Audit options that collect every run with its payloads: the parsed records
 * (`onRecord`, before their run holds them) of each run, joined to its held calls
 * and results in order when the run is complete (`onRun`).
 */
export function payloadRuns(): { readonly runs: PayloadRun[]; readonly onRecord: (record: TraceRecord) => void; readonly onRun: (run: Run) => void } {
  const runs: PayloadRun[] = [];
  const parsed = new Map<string, { calls: ToolCall[]; results: ToolResult[] }>();
  return {
    runs,
    onRecord(record) {
      const key = record.runId ?? '';
      let entry = parsed.get(key);
      if (!entry) parsed.set(key, (entry = { calls: [], results: [] }));
      if (record.kind === 'tool_call') entry.calls.push(record);
      else if (record.kind === 'tool_result') entry.results.push(record);
    },
    onRun(run) {
      const key = run.runId ?? '';
      const entry = parsed.get(key) ?? { calls: [], results: [] };
      parsed.delete(key);
      runs.push({
        ...run,
        calls: run.calls.map((call, i) => ({ ...fields(call), args: entry.calls[i]!.args, ...pick(entry.calls[i]!, 'argsCanonical') })),
        results: run.results.map((result, i) => ({ ...fields(result), content: entry.results[i]!.content, ...pick(entry.results[i]!, 'contentCanonical') })),
      });
    },
  };
}

function pick<T extends object, K extends keyof T>(value: T, key: K): Partial<Pick<T, K>> {
  return value[key] === undefined ? {} : ({ [key]: value[key] } as Partial<Pick<T, K>>);
}

/** A held record's fields as a plain object: held records keep most of them as getters (src/audit/held/held-records.ts), which a spread does not copy. */
export function fields<T extends object>(held: T): T {
  const out: Record<string, unknown> = {};
  const internal = new Set(['constructor', 'origin', 'lineFlags', 'time', 'rare', 'end']);
  for (let o: object | null = held; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) if (!internal.has(key) && !(key in out)) out[key] = (held as Record<string, unknown>)[key];
  }
  return out as T;
}
