import { SEVERITY_RANK, type Finding, type Severity } from '../model/finding.js';
import type { Report } from './schema.js';

/** One row of the triage table: a rule that fired, how often, why, and what to do. */
export interface TriageRow {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly count: number;
  readonly likelyCause: string;
  readonly nextAction: string;
  /** The first few findings, in report order. */
  readonly first: readonly Finding[];
}

/** Rows ordered by severity (most severe first), then count, then rule id. */
export function triageRows(report: Report, firstCount = 3): TriageRow[] {
  const byRule = new Map<string, Finding[]>();
  for (const finding of report.findings) {
    const list = byRule.get(finding.ruleId);
    if (list) list.push(finding);
    else byRule.set(finding.ruleId, [finding]);
  }
  const rows: TriageRow[] = [];
  for (const rule of report.rules) {
    const list = byRule.get(rule.id);
    if (!list) continue;
    const severity = list.reduce<Severity>((worst, f) => (SEVERITY_RANK[f.severity] > SEVERITY_RANK[worst] ? f.severity : worst), 'note');
    rows.push({ ruleId: rule.id, severity, count: list.length, likelyCause: rule.likelyCause, nextAction: rule.nextAction, first: firstPlaces(list, firstCount) });
  }
  return rows.sort(
    (a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.count - a.count || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0),
  );
}

/** The first findings at distinct places (two findings on one line show that line once). */
function firstPlaces(list: readonly Finding[], count: number): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const finding of list) {
    const place = locationOf(finding);
    if (seen.has(place)) continue;
    seen.add(place);
    out.push(finding);
    if (out.length === count) break;
  }
  return out;
}

export function locationOf(finding: Finding): string {
  return finding.line > 0 ? `${finding.file}:${finding.line}` : finding.file;
}

/**
 * A location that fits `max` characters, cut from the left: the end, the file
 * name and its line, is what tells one place from another. `file:line` is
 * always kept whole (even when it alone is longer), and the cut starts at a
 * folder boundary when one is in reach: `…/claude-code/session.jsonl:12`.
 * Outside the working folder (`../…`) the kept end starts at a folder name, never inside the `../` steps.
 */
export function shortLocation(location: string, max: number): string {
  const chars = [...location];
  if (chars.length <= max) return location;
  const name = [...location.slice(location.lastIndexOf('/') + 1)];
  const keep = Math.max(max - 1, name.length + 1);
  if (keep >= chars.length) return location;
  let tail = chars.slice(chars.length - keep).join('');
  const boundary = tail.indexOf('/');
  // Cut inside a folder name: start at the next folder instead.
  if (chars[chars.length - keep - 1] !== '/' && boundary > 0 && [...tail.slice(boundary)].length >= name.length) tail = tail.slice(boundary);
  // Outside the working folder the kept end never starts inside the `../` steps (`…../x`): it starts at a real folder.
  const steps = /^\/?(?:\.\.?\/)+|^\.+(?=\/)/.exec(tail);
  if (steps && [...tail.slice(steps[0].length)].length >= name.length) tail = tail.slice(steps[0].length).replace(/^(?!\/)/, '/');
  return `…${tail}`;
}
