import type { Report } from '../schema.js';
import { rankRuns, runIndexOf, TIME_SHAPED_RULES } from '../timeline/rank.js';
import { BAR_FLAG, type RunTimeline } from '../../model/timeline.js';

export interface MermaidOptions {
  /** How many of the worst runs to draw. */
  readonly runs?: number;
  /** Bars drawn per run (the first ones in time). */
  readonly bars?: number;
  /** Lanes (sections) drawn per run. */
  readonly lanes?: number;
  /** Call id → the time-shaped rules that fired on it: the bar is labelled with them. */
  readonly rules?: ReadonlyMap<string, string>;
  /** The `### Timelines …` heading (default true); false where the caller has its own (the comment's collapsed section). */
  readonly heading?: boolean;
}

const LABEL_MAX = 40;

/**
 * Text safe inside a Mermaid label: no characters Mermaid gives a meaning
 * (`;:#%{}[]()<>"` and friends, so no directive, comment, link or markup can
 * be injected), no line breaks, capped in length, never empty.
 */
export function mermaidLabel(text: string, max = LABEL_MAX): string {
  let out = text
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    .replace(/[;:#%{}[\]()<>"'`\\|&=,*~^$@!?+]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  if (out.length > max) out = `${out.slice(0, max - 1)}…`;
  return out === '' ? '_' : out;
}

/**
 * One `gantt` block for a run: a section per lane (model, then tools),
 * a task per bar. Errors and orphans are `crit`, budget misses `active`,
 * llm spans `done`. A run without timestamps is laid out by record order
 * and its title says so. Task labels start with their position, so no label
 * can begin with a Mermaid keyword.
 */
export function runGantt(timeline: RunTimeline, options: MermaidOptions = {}): string {
  const maxBars = options.bars ?? 30;
  const maxLanes = options.lanes ?? 8;
  const keptLanes = new Set<number>();
  for (const bar of timeline.bars) {
    if (keptLanes.size >= maxLanes) break;
    keptLanes.add(bar.lane);
  }
  const bars = timeline.bars.filter((bar) => keptLanes.has(bar.lane)).slice(0, maxBars);
  const hidden = timeline.bars.length + timeline.truncated - bars.length;
  const parts = [mermaidLabel(timeline.file, 60)];
  if (timeline.runId !== null) parts.push(`run ${mermaidLabel(timeline.runId, 50)}`);
  // Positions are small numbers read as epoch milliseconds: the axis shows seconds (minutes past a minute), or record numbers; the title names the same unit.
  const minutes = timeline.timed && timeline.end >= 60_000;
  const hours = timeline.timed && timeline.end >= 3_600_000;
  parts.push(!timeline.timed ? 'record number - no timestamps' : hours ? 'hours minutes seconds from run start' : minutes ? 'minutes and seconds from run start' : 'seconds from run start');
  if (hidden > 0) parts.push(`first ${bars.length} of ${bars.length + hidden} bars`);
  const title = parts.join(' - ');
  const axis = !timeline.timed ? '%L' : hours ? '%H:%M:%S' : minutes ? '%M:%S' : '%S.%L';
  const out = ['gantt', `  title ${title}`, '  dateFormat x', `  axisFormat ${axis}`];
  const end = Math.max(timeline.end, 1);
  // An orphan is open to the end of its run, and never a sliver: at least a tenth of the run past its start.
  const openEnd = (start: number) => Math.max(end, start + Math.max(1, Math.ceil(end / 10)));
  // Every bar at least a fortieth of the run wide, so a 1 ms llm span is a bar, not a sliver with a floating label.
  const visible = Math.max(1, Math.ceil(end / 40));
  let n = 0;
  for (const laneId of [...keptLanes].sort((a, b) => a - b)) {
    out.push(`  section ${mermaidLabel(timeline.lanes[laneId] ?? '?')}`);
    for (const bar of bars) {
      if (bar.lane !== laneId) continue;
      n += 1;
      const stop = bar.end === null ? openEnd(bar.start) : bar.end;
      const tag = tagOf(bar.flags);
      const what = bar.flags & BAR_FLAG.llm ? 'llm' : bar.flags & BAR_FLAG.open ? 'no result' : bar.flags & BAR_FLAG.error ? 'error' : bar.flags & BAR_FLAG.late ? 'late' : 'ok';
      const storm = bar.flags & BAR_FLAG.storm ? ' storm' : '';
      const rule = bar.callId === null ? undefined : options.rules?.get(bar.callId);
      const label = `${n}. line ${bar.line} ${rule === undefined ? `${what}${storm}` : mermaidLabel(rule, 60)}`;
      out.push(`  ${label} :${tag}t${n}, ${Math.floor(bar.start)}, ${Math.max(Math.floor(stop), Math.floor(bar.start) + visible)}`);
    }
  }
  return out.join('\n');
}

function tagOf(flags: number): string {
  if (flags & (BAR_FLAG.error | BAR_FLAG.open)) return 'crit, ';
  if (flags & BAR_FLAG.late) return 'active, ';
  if (flags & BAR_FLAG.llm) return 'done, ';
  return '';
}

/**
 * Markdown lines with a Mermaid timeline for each run with time-shaped
 * findings (orphans, budget misses, late results, retry storms, calls the
 * model went on without; the most first), each bar of a finding labelled
 * with its rule, fitted into `maxChars`: fewer bars, then fewer runs, until
 * it fits. Empty when nothing fits or no run has such a finding.
 */
export function mermaidSection(report: Report, timelines: readonly RunTimeline[], maxChars: number, options: MermaidOptions = {}): string[] {
  const shaped = rankRuns(report, timelines).filter((r) => r.timeShaped > 0 && r.timeline.bars.length > 0);
  const labels = barRules(report, timelines);
  for (let runs = Math.min(options.runs ?? 3, shaped.length); runs > 0; runs--) {
    for (const bars of [options.bars ?? 30, 15, 6]) {
      const lines = [...(options.heading === false ? [] : ['### Timelines of runs with time-shaped findings', '']), '_Each bar is a tool call from call to result (an llm span in the model section), labelled with the rule that fired on it; red: error or no result (open to the end of the run)._', ''];
      for (const ranked of shaped.slice(0, runs)) {
        const c = ranked.counts;
        lines.push(`Findings in this run: ${c.error} error(s), ${c.warning} warning(s), ${c.note} note(s).`, '', '```mermaid', runGantt(ranked.timeline, { ...options, bars, rules: labels.get(ranked.index) }), '```', '');
      }
      if (lines.join('\n').length + 1 <= maxChars) return lines;
    }
  }
  return [];
}

/** Per run index: call id → its time-shaped rule ids, joined (e.g. "orphan-call / continued-while-outstanding"). */
function barRules(report: Report, timelines: readonly RunTimeline[]): Map<number, Map<string, string>> {
  const owner = runIndexOf(report.findings, timelines);
  const out = new Map<number, Map<string, string>>();
  report.findings.forEach((f, i) => {
    const run = owner[i]!;
    if (run < 0 || f.callId === null || !TIME_SHAPED_RULES.has(f.ruleId)) return;
    let calls = out.get(run);
    if (!calls) out.set(run, (calls = new Map()));
    const seen = calls.get(f.callId);
    if (seen === undefined) calls.set(f.callId, f.ruleId);
    else if (!seen.split(' / ').includes(f.ruleId)) calls.set(f.callId, `${seen} / ${f.ruleId}`);
  });
  return out;
}
