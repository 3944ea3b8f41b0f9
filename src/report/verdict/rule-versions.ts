import { RULES } from '../../audit/rules/index.js';
import type { Report } from '../schema.js';

/** Rule id → version, of the rules a report ran. */
export type RulesRan = ReadonlyMap<string, number>;

/**
 * The rules a report ran, with their versions: its `rulesRun`. A report written
 * before `rulesRun` existed (0.1.0 and earlier) does not say which rules it
 * ran: it is taken to have run every rule of the registry at version 1, the
 * version of every rule then (its `rules[]` entries, which have no `version`,
 * read as 1). A rule it did not run, or ran at another version, is then known
 * only from a report that says so.
 */
export function rulesRan(report: Pick<Report, 'rules' | 'rulesRun'>): RulesRan {
  const out = new Map<string, number>();
  if (report.rulesRun) {
    for (const rule of report.rulesRun) out.set(rule.id, rule.version);
    return out;
  }
  for (const rule of RULES) out.set(rule.meta.id, 1);
  for (const rule of report.rules) out.set(rule.id, rule.version ?? 1);
  return out;
}

/** The rules as the head ran them: a finding of a rule the head does not list (a stored report's) counts as version 1. */
export function headVersion(head: RulesRan, ruleId: string): number {
  return head.get(ruleId) ?? 1;
}
