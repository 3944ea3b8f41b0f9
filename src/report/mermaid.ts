import type { Report } from './schema.js';
import { rankRuns } from './timeline/rank.js';
import { BAR_FLAG, type RunTimeline } from './timeline/types.js';

export interface MermaidOptions {
  /** How many of the worst runs to draw. */
  readonly runs?: number;
  /** Bars drawn per run (the first ones in time). */
  readonly bars?: number;
  /** Lanes (sections) drawn per run. */
  readonly lanes?: number;
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
  parts.push(timeline.timed ? 'ms from run start' : 'by record order - no timestamps');
  if (hidden > 0) parts.push(`first ${bars.length} of ${bars.length + hidden}`);
  const title = parts.join(' - ');
  // Positions are small numbers read as epoch milliseconds: the axis shows seconds (minutes past a minute), or record numbers.
  const axis = !timeline.timed ? '%L' : timeline.end >= 60_000 ? '%M:%S' : '%S.%L';
  const out = ['gantt', `  title ${title}`, '  dateFormat x', `  axisFormat ${axis}`];
  const end = Math.max(timeline.end, 1);
  let n = 0;
  for (const laneId of [...keptLanes].sort((a, b) => a - b)) {
    out.push(`  section ${mermaidLabel(timeline.lanes[laneId] ?? '?')}`);
    for (const bar of bars) {
      if (bar.lane !== laneId) continue;
      n += 1;
      const stop = bar.end === null ? end : bar.end;
      const tag = tagOf(bar.flags);
      const what = bar.flags & BAR_FLAG.llm ? 'llm' : bar.flags & BAR_FLAG.open ? 'no result' : bar.flags & BAR_FLAG.error ? 'error' : bar.flags & BAR_FLAG.late ? 'late' : 'ok';
      const storm = bar.flags & BAR_FLAG.storm ? ' storm' : '';
      const label = `${n}. line ${bar.line} ${what}${storm}`;
      out.push(`  ${label} :${tag}t${n}, ${Math.floor(bar.start)}, ${Math.max(Math.floor(stop), Math.floor(bar.start) + 1)}`);
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
 * Markdown lines with a Mermaid timeline for each of the worst runs (runs
 * with findings, most severe first), fitted into `maxChars`: fewer bars,
 * then fewer runs, until it fits. Empty when nothing fits or no run has a finding.
 */
export function mermaidSection(report: Report, timelines: readonly RunTimeline[], maxChars: number, options: MermaidOptions = {}): string[] {
  const worst = rankRuns(report, timelines).filter((r) => r.counts.error + r.counts.warning + r.counts.note > 0 && r.timeline.bars.length > 0);
  for (let runs = Math.min(options.runs ?? 3, worst.length); runs > 0; runs--) {
    for (const bars of [options.bars ?? 30, 15, 6]) {
      const lines = ['### Timelines of the worst runs', '', '_Each bar is a tool call from call to result (an llm span in the model section); red: error or no result._', ''];
      for (const ranked of worst.slice(0, runs)) {
        const c = ranked.counts;
        lines.push(`${c.error} error(s), ${c.warning} warning(s), ${c.note} note(s):`, '', '```mermaid', runGantt(ranked.timeline, { ...options, bars }), '```', '');
      }
      if (lines.join('\n').length + 1 <= maxChars) return lines;
    }
  }
  return [];
}
