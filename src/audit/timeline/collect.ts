import { fingerprintKey } from '../facts/call-identity.js';
import { RunMemos } from '../held/memo.js';
import { pairRun } from '../facts/pairing.js';
import type { HeldCall, HeldResult, Run } from '../../model/run.js';
import { sanitizeText } from '../../sanitize/text.js';
import { BAR_FLAG, type RunTimeline, type TimelineBar } from '../../model/timeline.js';

/** Bars kept per run; a longer run says how many were left out. */
export const MAX_BARS_PER_RUN = 50_000;
/** Identical calls (tool + canonical args) that make a retry storm on the timeline. */
const STORM_SIZE = 3;
const LLM_LANE = 'model';

/**
 * A compact, sanitized timeline of one run: llm spans and tool calls as bars
 * (call to result), orphans open to the run's end, errors, budget misses and
 * retry storms flagged. Positions are milliseconds from the run's first
 * timestamp when every drawn record has one; otherwise record order (`timed: false`).
 */
export function collectTimeline(run: Run, memos: RunMemos = new RunMemos()): RunTimeline {
  const timed = isTimed(run);
  const index = new Map<object, number>();
  run.records.forEach((record, i) => index.set(record, i));
  const at = (record: HeldCall | HeldResult | Run['llmSpans'][number]): number => (timed ? record.ts! : index.get(record)!);
  const origin = timed ? firstTime(run) : 0;

  const lanes = new Lanes();
  const bars: TimelineBar[] = [];
  for (const span of run.llmSpans) {
    const start = at(span) - origin;
    const end = timed ? (span.endTs ?? span.ts!) - origin : start + 1;
    bars.push({ lane: lanes.of(LLM_LANE), start, end: Math.max(end, start), line: span.loc.line, callId: null, flags: BAR_FLAG.llm, storm: 0 });
  }
  bars.push(...callBars(run, memos, lanes, (record) => at(record) - origin, timed));

  bars.sort((a, b) => a.start - b.start || a.line - b.line);
  const kept = bars.slice(0, MAX_BARS_PER_RUN);
  let last = timed ? 0 : run.records.length;
  if (timed) {
    for (const record of run.records) if (record.ts !== null && record.ts - origin > last) last = record.ts - origin;
    for (const bar of bars) last = Math.max(last, bar.end ?? bar.start);
  }
  return {
    file: sanitizeText(run.file, { maxChars: 300 }),
    runId: run.runId === null ? null : sanitizeText(run.runId, { maxChars: 120 }),
    timed,
    end: last,
    lanes: lanes.names,
    bars: kept,
    truncated: bars.length - kept.length,
  };
}

/** Lane names in order of first use. */
class Lanes {
  readonly names: string[] = [];
  readonly #ids = new Map<string, number>();

  of(name: string): number {
    let id = this.#ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.#ids.set(name, id);
      this.names.push(name);
    }
    return id;
  }
}

/** A bar per tool call: to its result (flagged error or late), open to the end for an orphan. */
function callBars(run: Run, memos: RunMemos, lanes: Lanes, position: (record: HeldCall | HeldResult) => number, timed: boolean): TimelineBar[] {
  const storms = stormCalls(run.calls, memos);
  const pairing = pairRun(run);
  const resultOf = new Map<HeldCall, HeldResult>();
  for (const { call, result } of pairing.pairs) resultOf.set(call, result);
  const orphans = new Set(pairing.orphans);
  const bars: TimelineBar[] = [];
  for (const call of run.calls) {
    const result = resultOf.get(call);
    const start = position(call);
    let flags = 0;
    let end: number | null = null;
    if (result) {
      end = Math.max(start, position(result));
      if (result.isError) flags |= BAR_FLAG.error;
      if (timed && call.deadlineMs !== null && end - start > call.deadlineMs) flags |= BAR_FLAG.late;
    } else if (orphans.has(call)) flags |= BAR_FLAG.open;
    else end = start;
    const storm = storms.get(call) ?? 0;
    if (storm > 0) flags |= BAR_FLAG.storm;
    bars.push({ lane: lanes.of(clean(call.tool)), start, end, line: call.loc.line, callId: call.callId === null ? null : clean(call.callId), flags, storm });
  }
  return bars;
}

/** Bars kept over all runs of one audit: past it, runs keep their name and counts but no bars. */
export const MAX_BARS_TOTAL = 500_000;

/** Applies the total bar cap to timelines in audit order (what `timelineCollector` does as runs complete). */
export function capTimelines(all: readonly RunTimeline[], maxBars = MAX_BARS_TOTAL): RunTimeline[] {
  let kept = 0;
  return all.map((timeline) => {
    if (kept + timeline.bars.length <= maxBars) {
      kept += timeline.bars.length;
      return timeline;
    }
    return { ...timeline, bars: [], truncated: timeline.bars.length + timeline.truncated };
  });
}

/** Timelines of every run as the engine completes them: pass `onRun` to the audit. */
export function timelineCollector(maxBars = MAX_BARS_TOTAL): { readonly timelines: RunTimeline[]; readonly onRun: (run: Run) => void } {
  const timelines: RunTimeline[] = [];
  let kept = 0;
  const onRun = (run: Run) => {
    const timeline = collectTimeline(run);
    if (kept + timeline.bars.length <= maxBars) {
      kept += timeline.bars.length;
      timelines.push(timeline);
    } else timelines.push({ ...timeline, bars: [], truncated: timeline.bars.length + timeline.truncated });
  };
  return { timelines, onRun };
}

function isTimed(run: Run): boolean {
  const drawn = [...run.llmSpans, ...run.calls, ...run.results];
  return drawn.length > 0 && drawn.every((record) => record.ts !== null && Number.isFinite(record.ts));
}

function firstTime(run: Run): number {
  let first = Infinity;
  for (const record of run.llmSpans) if (record.ts! < first) first = record.ts!;
  for (const record of run.calls) if (record.ts! < first) first = record.ts!;
  return Number.isFinite(first) ? first : 0;
}

/** Calls that belong to a group of STORM_SIZE or more identical calls, with their group's number (1-based, in order of first call). */
function stormCalls(calls: readonly HeldCall[], memos: RunMemos): Map<HeldCall, number> {
  const groups = new Map<string, HeldCall[]>();
  for (const call of calls) {
    const key = fingerprintKey(call);
    if (key === null) continue;
    const group = groups.get(key);
    if (group) group.push(call);
    else groups.set(key, [call]);
  }
  const out = new Map<HeldCall, number>();
  let id = 0;
  for (const group of groups.values()) {
    if (group.length < STORM_SIZE) continue;
    id += 1;
    for (const call of group) out.set(call, id);
  }
  return out;
}

function clean(text: string): string {
  return sanitizeText(text, { maxChars: 120 });
}
