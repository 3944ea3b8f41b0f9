import type { Report } from '../schema.js';
import { deltaLines, ruleReferences, whereTheRestIs, type Comparison, type MoreLinks } from './delta-lines.js';
import { ruleGuidance } from './guidance.js';
import { apartLines } from './apart-lines.js';
import type { FileLinks } from './links.js';
import { changedRows, ruleRows, ruleTable } from './rule-table.js';
import { verdictLines, type Verdict } from './verdict.js';
import { suppressedMarkdown } from '../verdict/suppressed-lines.js';
import { noFindingsSentence } from '../verdict/verdict.js';
import { groupDigits } from '../digits.js';

/** The pull request comment's size target: far under GitHub's 65,536 cap, about one screen collapsed. */
export const COMMENT_TARGET = 12_000;
/** New findings listed one per line at the top, each with its whole message. */
export const NEW_SHOWN = 20;
/** A rule table of more rows than this is collapsed. */
export const TABLE_OPEN_MAX = 8;

export interface CommentInput {
  readonly verdict: Verdict;
  readonly comparison: Comparison;
  readonly files: FileLinks;
  readonly more: MoreLinks;
  /** Our own lines about the run: run and artifact links, seal digest, artifacts read. */
  readonly details: readonly string[];
  /** Derived metrics, as sentences (metricsLines). */
  readonly metrics: readonly string[];
  /** The tool catalog comparison with the base branch (our own lines); empty when not compared. */
  readonly base: readonly string[];
  /** The Mermaid timelines fitted into a character budget; none when nothing fits. */
  readonly timelines: (maxChars: number) => readonly string[];
  /** Kept whole at the very end (the hidden marker). */
  readonly tail: readonly string[];
}

export interface RenderedComment {
  readonly markdown: string;
  /** Rule rows shown in the table, out of `rules`. */
  readonly rowsShown: number;
  readonly rules: number;
  /** The collapsed sections left out to stay within the limit, by name. */
  readonly left: readonly string[];
}

const LEFT_RESERVE = 400;
/** Guidance blocks at most (the rules with new findings first), and the room kept for at least one timeline. */
const GUIDED_MAX = 8;
const TIMELINE_RESERVE = 2_000;

/**
 * The comment a reviewer reads in ten seconds: the verdict with the head and
 * base commits, what this PR added (the most urgent first) and fixed, a
 * compact rule table, then collapsed sections (guidance per rule, run and
 * seal, catalog comparison, timelines) while they fit in `limit` characters.
 * Whatever is left out is named, with where to find it.
 */
export function renderComment(report: Report, input: CommentInput, limit = COMMENT_TARGET): RenderedComment {
  const compared = input.comparison.kind === 'compared';
  const rows = ruleRows(report, input.comparison);
  const out: string[] = [
    ...verdictLines(report, input.verdict),
    '',
    ...deltaLines(input.comparison, input.files, input.more, NEW_SHOWN, true, report.findings),
    ...apartLines(input.comparison, input.files, input.more, NEW_SHOWN, true),
  ];
  const refs = ruleReferences(rows.map((row) => row.ruleId));
  const end = [...(refs.length > 0 ? ['', ...refs] : []), ...(input.tail.length > 0 ? ['', ...input.tail] : [])];
  const size = (lines: readonly string[]) => lines.join('\n').length + 1;
  const room = (reserved = 0) => limit - LEFT_RESERVE - reserved - size([...out, ...end]);

  let shown = 0;
  const listed = changedRows(rows, compared);
  const unchanged = rows.length - listed.length;
  if (rows.length === 0) out.push('', noFindingsSentence(report));
  else if (listed.length > 0) {
    const table = ruleTable(listed, compared);
    const header = table.slice(0, 2);
    const body = table.slice(2);
    const open = listed.length <= TABLE_OPEN_MAX;
    const title = compared ? `${listed.length} rule(s) with new or fixed findings` : `${listed.length} rule(s) with findings`;
    const wrap = open ? [] : [`<details><summary>${title}</summary>`, '', '</details>'];
    let cost = size(['', ...wrap, ...header]);
    while (shown < body.length && cost + body[shown]!.length + 1 <= room()) cost += body[shown++]!.length + 1;
    if (shown > 0) out.push('', ...(open ? [] : wrap.slice(0, 2)), ...header, ...body.slice(0, shown), ...(open ? [] : ['', wrap[2]!]));
    if (shown < body.length) out.push('', `_${body.length - shown} more rule(s) in ${whereTheRestIs(input.more)}._`);
  }
  if (compared && unchanged > 0) out.push('', `_${unchanged} more rule(s) with findings this PR did not change: in ${whereTheRestIs(input.more)}._`);

  // Below the table, collapsed: guidance, then the run and seal, the catalog comparison and the timelines.
  const about = [...input.details, ...(input.metrics.length > 0 ? ['', ...input.metrics] : [])];
  const runSection = about.length > 0 ? ['<details><summary>Run, seal and metrics</summary>', '', ...about, '', '</details>'] : [];
  const baseSection = input.base.length > 0 ? ['<details><summary>Tool catalogs and counts against the base branch</summary>', '', ...input.base, '', '</details>'] : [];
  const small = (runSection.length > 0 ? size(runSection) + 1 : 0) + (baseSection.length > 0 ? size(baseSection) + 1 : 0);

  const left: string[] = [];
  out.push(...guidanceLines(rows, compared, size, room(small + TIMELINE_RESERVE)));

  const section = (name: string, lines: readonly string[]) => {
    if (lines.length === 0) return;
    if (size(lines) + 1 <= room()) out.push('', ...lines);
    else left.push(name);
  };
  section('the suppressed findings', suppressedMarkdown(report));
  section('run, seal and metrics', runSection);
  section('the tool catalog comparison', baseSection);
  const pictures = input.timelines(Math.max(0, room() - 120));
  if (pictures.length > 0) section('timelines', ['<details><summary>Timelines of runs with time-shaped findings</summary>', '', ...pictures, '</details>']);
  else if (report.findings.length > 0) left.push('timelines');

  if (left.length > 0) out.push('', `_Left out to stay within ${groupDigits(limit)} characters: ${left.join(', ')}; they are in ${whereTheRestIs(input.more)}._`);
  out.push(...end);
  return { markdown: `${out.join('\n')}\n`, rowsShown: shown, rules: listed.length, left };
}

/** The collapsed "likely cause and next action" blocks of the first rules (new findings first) that fit in `budget` characters; none when none fits. */
function guidanceLines(rows: ReturnType<typeof ruleRows>, compared: boolean, size: (lines: readonly string[]) => number, budget: number): string[] {
  const guided = (compared ? [...rows.filter((r) => r.added > 0), ...rows.filter((r) => r.added === 0)] : rows).slice(0, GUIDED_MAX);
  const blocks: string[] = [];
  let guidedShown = 0;
  const wrapper = (n: number) => [`<details><summary>Likely cause and next action (${n} of ${rows.length} rule(s); each rule's docs page has them all)</summary>`, '', '</details>'];
  for (const row of guided) {
    const block = ruleGuidance(row.ruleId);
    if (block.length === 0) continue;
    if (size([...wrapper(guidedShown + 1), ...blocks, ...block]) + 1 > budget) break;
    blocks.push(...block, '');
    guidedShown += 1;
  }
  if (guidedShown === 0) return [];
  const [open, blank, close] = wrapper(guidedShown);
  return ['', open!, blank!, ...blocks, close!];
}
