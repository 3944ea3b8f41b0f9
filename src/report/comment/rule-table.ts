import { SEVERITY_RANK, type Finding, type Severity } from '../../model/finding.js';
import { countByRule } from '../verdict/delta.js';
import type { Report } from '../schema.js';
import { compareRuleUrgency, rulePriority } from '../urgency.js';
import { ruleLink, SEVERITY_ICON, type Comparison } from './delta-lines.js';

export interface RuleRow {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly count: number;
  readonly added: number;
  readonly fixed: number;
}

/**
 * One row per rule that fired in the head report or was fixed by it: the most
 * severe first, secrets first among errors, then by count and id.
 */
export function ruleRows(report: Report, comparison: Comparison): RuleRow[] {
  const severity = new Map<string, Severity>();
  const note = (list: readonly Finding[]) => {
    for (const f of list) {
      const seen = severity.get(f.ruleId);
      if (seen === undefined || SEVERITY_RANK[f.severity] > SEVERITY_RANK[seen]) severity.set(f.ruleId, f.severity);
    }
  };
  note(report.findings);
  const count = countByRule(report.findings);
  const compared = comparison.kind === 'compared';
  const added = compared ? countByRule(comparison.delta.added) : new Map<string, number>();
  const fixed = compared ? countByRule(comparison.delta.fixed) : new Map<string, number>();
  if (compared) for (const f of comparison.delta.fixed) if (!severity.has(f.ruleId)) severity.set(f.ruleId, f.severity);
  const rows = [...severity].map(([ruleId, sev]) => ({ ruleId, severity: sev, count: count.get(ruleId) ?? 0, added: added.get(ruleId) ?? 0, fixed: fixed.get(ruleId) ?? 0 }));
  return rows.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || rulePriority(b.ruleId) - rulePriority(a.ruleId) || b.count - a.count || compareRuleUrgency(a.ruleId, b.ruleId));
}

/**
 * The rows the comment shows: compared with the base branch, only the rules
 * with findings new or fixed in this pull request (no `0 | 0` row); otherwise
 * every rule with a count.
 */
export function changedRows(rows: readonly RuleRow[], compared: boolean): RuleRow[] {
  return compared ? rows.filter((row) => row.added > 0 || row.fixed > 0) : rows.filter((row) => row.count > 0);
}

/** The compact table: rule (a reference link, see ruleReferences) · severity · count, and new · fixed when compared. No prose columns. */
export function ruleTable(rows: readonly RuleRow[], compared: boolean): string[] {
  const out = compared ? ['| Rule | Severity | Count | New | Fixed |', '|---|---|---:|---:|---:|'] : ['| Rule | Severity | Count |', '|---|---|---:|'];
  for (const row of rows) {
    const cells = [ruleLink(row.ruleId, true), `${SEVERITY_ICON[row.severity]} ${row.severity}`, String(row.count)];
    if (compared) cells.push(row.added > 0 ? `+${row.added}` : '0', row.fixed > 0 ? `−${row.fixed}` : '0');
    out.push(`| ${cells.join(' | ')} |`);
  }
  return out;
}
