import type { FailOn } from '../../audit/engine/audit-config.js';
import { SEVERITIES, SEVERITY_RANK, type Finding, type Severity } from '../../model/finding.js';
import type { FindingDelta } from './delta.js';
import type { Report } from '../schema.js';
import { coverageOf, toolShapedFiles, unreadBreakdown, type Coverage } from './coverage.js';
import { groupDigits } from '../digits.js';

export type { Coverage };

import type { Gate } from '../../audit/engine/audit-config.js';

export type { Gate };
/** What the job fails on: findings new against the base branch's report, or every finding. */
export const GATES: readonly Gate[] = ['new', 'all'];

/**
 * `nothing-audited`: no tool call or result was read at all (no file, or files
 * with nothing the parsers could read); it never says passed. Otherwise passed
 * or failed by the gate, with `partlyRead` files leading the line when some
 * file held tool-shaped content that was not read.
 */
export type VerdictState = 'nothing-audited' | 'failed' | 'passed';

export interface VerdictInput {
  /** The report as judged (suppressed findings already taken out: see suppress.ts). */
  readonly report: Pick<Report<Iterable<Finding>>, 'summary' | 'files'>;
  readonly failOn: FailOn;
  /** The gate asked for; `new` without a comparison falls back to `all` and says so. */
  readonly gate: Gate;
  /** The findings new and fixed against the base branch's report, or null when not compared (why: `noBaseline`). */
  readonly delta: FindingDelta | null;
  readonly noBaseline?: string;
  /** Nothing audited passes (CLI --allow-empty, Action fail-on-empty: false); it is still said. */
  readonly allowEmpty: boolean;
  /** A trace file not read fails the run (fail-on-unread); by default it leads the line and the check run is neutral. */
  readonly failOnUnread?: boolean;
}

/** The check run's conclusion (and the Action's `conclusion` output): neutral when the findings pass but files went unread. */
export type Conclusion = 'success' | 'neutral' | 'failure';

export interface Verdict {
  readonly state: VerdictState;
  readonly failOn: FailOn;
  /** The job fails / the CLI exits 1. */
  readonly failed: boolean;
  readonly conclusion: Conclusion;
  /** Trace files not read fail the run (the input as given). */
  readonly failOnUnread: boolean;
  /** Why it failed: findings at or above the fail level (by the gate); trace files not read with fail-on-unread. */
  readonly failedBy: { readonly findings: boolean; readonly unread: boolean };
  /** Nothing audited passes (the input as given: CLI --allow-empty, Action fail-on-empty: false). */
  readonly allowEmpty: boolean;
  readonly coverage: Coverage;
  /** The gate applied (`all` when `new` had no baseline). */
  readonly gate: Gate;
  /** One line when `new` fell back to `all` (our own words), else null. */
  readonly gateNote: string | null;
  /** Compared with the base branch: the new and fixed findings (null when not compared, and always when nothing was audited). */
  readonly delta: FindingDelta | null;
  /** Findings per severity, in all and new (new: zeros when not compared). */
  readonly all: Readonly<Record<Severity, number>>;
  readonly added: Readonly<Record<Severity, number>>;
  /** The one-line verdict, plain text (no markdown, no trace text): it leads every edge. */
  readonly headline: string;
}

const LEVELS_DOWN = [...SEVERITIES].sort((a, b) => SEVERITY_RANK[b] - SEVERITY_RANK[a]);
const WORD: Record<Severity, [string, string]> = { error: ['error', 'errors'], warning: ['warning', 'warnings'], note: ['note', 'notes'] };

export function plural(n: number, one: string, many: string): string {
  return `${groupDigits(n)} ${n === 1 ? one : many}`;
}

const counted = (severity: Severity, n: number, prefix = '') => plural(n, `${prefix}${WORD[severity][0]}`, `${prefix}${WORD[severity][1]}`);

/**
 * The verdict every edge shows (CLI summary line and exit code, the comment's
 * and the job summary's title, the check run's title and conclusion): one pure
 * function of the report, the fail level, the gate and the comparison.
 */
export function decideVerdict(input: VerdictInput): Verdict {
  const coverage = coverageOf(input.report);
  const all = input.report.summary.findings;
  const empty = coverage.toolCalls + coverage.toolResults === 0;
  // A run that read nothing is not compared: the base branch's findings are not "fixed" by it.
  const delta = empty ? null : input.delta;
  const added: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const f of delta?.added ?? []) added[f.severity] += 1;
  const gate: Gate = input.gate === 'new' && delta === null ? 'all' : input.gate;
  const gateNote =
    input.gate === 'new' && delta === null
      ? `gate: new judged on all findings: ${empty ? 'nothing was audited' : `no baseline (${input.noBaseline ?? 'no base report'})`}`
      : null;
  const levels = input.failOn === 'never' ? [] : LEVELS_DOWN.filter((s) => SEVERITY_RANK[s] >= SEVERITY_RANK[input.failOn as Severity]);
  const judged = gate === 'new' ? added : all;
  const over = levels.some((s) => judged[s] > 0);
  const failOnUnread = input.failOnUnread === true;
  const unreadFails = failOnUnread && coverage.unread.length > 0;
  const failed = over || (empty && !input.allowEmpty) || unreadFails;
  const state: VerdictState = empty ? 'nothing-audited' : over || unreadFails ? 'failed' : 'passed';
  const conclusion: Conclusion = failed ? 'failure' : coverage.unread.length > 0 ? 'neutral' : 'success';
  const headline = headlineOf({ state, over, unreadFails, coverage, levels, gate, all, added, delta, failOn: input.failOn });
  return { state, failOn: input.failOn, failed, conclusion, failOnUnread, failedBy: { findings: over, unread: unreadFails }, allowEmpty: input.allowEmpty, coverage, gate, gateNote, delta, all, added, headline };
}

interface HeadlineParts {
  readonly state: VerdictState;
  /** Findings at or above the fail level (by the gate). */
  readonly over: boolean;
  /** fail-on-unread and a trace file not read. */
  readonly unreadFails: boolean;
  readonly coverage: Coverage;
  readonly levels: readonly Severity[];
  readonly gate: Gate;
  readonly all: Readonly<Record<Severity, number>>;
  readonly added: Readonly<Record<Severity, number>>;
  readonly delta: FindingDelta | null;
  readonly failOn: FailOn;
}

function headlineOf(p: HeadlineParts): string {
  const c = p.coverage;
  if (p.state === 'nothing-audited') {
    const apart = c.notTraces.length > 0 ? ` (${plural(c.notTraces.length, 'file', 'files')} not trace-like)` : '';
    const where = c.files === 0 ? `no trace file was found${apart}` : `no tool call was read from ${plural(c.files, 'file', 'files')}`;
    const shaped = toolShapedFiles(c);
    const partly = shaped > 0 ? ` (${plural(shaped, 'file holds', 'files hold')} tool calls that were not read)` : '';
    const errors = p.levels.filter((s) => p.all[s] > 0).map((s) => counted(s, p.all[s]));
    return `⚠️ nothing audited: ${where}${partly}${errors.length > 0 ? `; ❌ ${errors.join(', ')}` : ''}`;
  }
  return `${unreadLead(p)}${outcomeOf(p)}`;
}

/**
 * What leads a line that judged findings: the trace files not read (❌ when fail-on-unread
 * fails on them), then the files read in part. Never a bare ✅ when a file was not read.
 */
function unreadLead(p: HeadlineParts): string {
  const c = p.coverage;
  const of = plural(c.files, 'file', 'files');
  const unread = c.unread.length > 0 ? `${p.unreadFails ? '❌' : '⚠️'} ${groupDigits(c.unread.length)} of ${of} not read (${unreadBreakdown(c.unread)}) · ` : '';
  const partly = c.partlyRead > 0 ? `${unread === '' ? '⚠️ ' : ''}partly read (${c.partlyRead} of ${of}) · ` : '';
  return `${unread}${partly}`;
}

function outcomeOf(p: HeadlineParts): string {
  const nonzero = (counts: Readonly<Record<Severity, number>>, severities: readonly Severity[], prefix = '') =>
    severities.filter((s) => counts[s] > 0).map((s) => counted(s, counts[s], prefix));
  if (p.failOn === 'never') {
    const found = nonzero(p.all, LEVELS_DOWN);
    return `✅ not gated (fail-on: never): ${found.length > 0 ? found.join(', ') : 'no findings'}`;
  }
  const levelWords = p.levels.map((s) => WORD[s][1]);
  const levelNone = levelWords.length === 3 ? 'findings' : levelWords.join(' or ');
  if (p.gate === 'new') {
    const inAll = nonzero(p.all, p.levels);
    const apart = apartOf(p.delta);
    if (p.over) return `❌ ${nonzero(p.added, p.levels, 'new ').join(', ')} (${[inAll.length > 0 ? `${inAll.join(', ')} in all` : 'none before', ...apart].join('; ')})`;
    const below = nonzero(p.added, LEVELS_DOWN.filter((s) => !p.levels.includes(s)), 'new ');
    // Existing: compared and seen in every base report (flaky and not-compared findings are named apart).
    const existing = nonzero(minusApart(p.all, p.delta), p.levels, 'existing ');
    const rest = [...below, ...apart, ...existing];
    const head = p.delta && p.delta.added.length === 0 ? 'no new findings' : `no new ${levelNone}`;
    return `✅ ${head}${rest.length > 0 ? ` (${rest.join('; ')})` : ''}`;
  }
  if (p.over) return `❌ ${nonzero(p.all, p.levels).join(', ')}`;
  const others = nonzero(p.all, LEVELS_DOWN.filter((s) => !p.levels.includes(s)));
  return `✅ no ${levelNone}${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
}

/** The flaky and not-compared findings, in words (none when not compared). */
function apartOf(delta: FindingDelta | null): string[] {
  if (!delta) return [];
  const out: string[] = [];
  if (delta.flaky.length > 0) out.push(plural(delta.flaky.length, 'flaky finding', 'flaky findings'));
  if (delta.notCompared.length > 0) out.push(plural(delta.notCompared.length, 'finding not compared', 'findings not compared'));
  return out;
}

/** Findings per severity less the flaky and the not-compared ones. */
function minusApart(all: Readonly<Record<Severity, number>>, delta: FindingDelta | null): Record<Severity, number> {
  const out = { ...all };
  for (const f of [...(delta?.flaky.map((x) => x.finding) ?? []), ...(delta?.notCompared ?? [])]) out[f.severity] -= 1;
  return out;
}

/** The coverage as one line of words: what was read, what was left out. */
export function coverageLine(c: Coverage, records = true): string {
  const parts = [
    plural(c.files, 'file', 'files'),
    ...(records ? [plural(c.records, 'record', 'records')] : []),
    plural(c.toolCalls, 'tool call', 'tool calls'),
    plural(c.toolResults, 'result', 'results'),
  ];
  if (c.skipped > 0) parts.push(`${plural(c.skipped, 'record', 'records')} skipped`);
  if (c.partlyRead > 0) parts.push(`${plural(c.partlyRead, 'file', 'files')} partly read`);
  if (c.unread.length > 0) parts.push(`${plural(c.unread.length, 'file', 'files')} not read`);
  if (c.notTraces.length > 0) parts.push(`${plural(c.notTraces.length, 'file', 'files')} not trace-like (not counted)`);
  return `read ${parts.join(', ')}`;
}

/** What a report with no finding says instead of a bare "No findings.": what was read, or that nothing was. */
export function noFindingsSentence(report: VerdictInput['report']): string {
  const c = coverageOf(report);
  if (c.toolCalls + c.toolResults === 0) return 'No findings, and nothing was audited: no tool call was read.';
  return `No findings in ${plural(c.toolCalls, 'tool call', 'tool calls')} and ${plural(c.toolResults, 'result', 'results')} read from ${plural(c.files, 'file', 'files')}.`;
}
