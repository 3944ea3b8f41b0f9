import { SEVERITY_RANK, type Finding } from '../model/finding.js';

/** Rules whose findings ask for action before any other of the same severity (a leaked credential is rotated now). */
const FIRST_RULES: ReadonlyMap<string, number> = new Map([['secret-in-trace', 1]]);

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Higher first among rules of one severity: 1 for secret-in-trace, 0 for the rest. */
export function rulePriority(ruleId: string): number {
  return FIRST_RULES.get(ruleId) ?? 0;
}

/** Among rules of one severity: secrets first, then by id. */
export function compareRuleUrgency(a: string, b: string): number {
  return rulePriority(b) - rulePriority(a) || cmp(a, b);
}

/**
 * The order a reviewer acts in: most severe first, secrets first within a
 * severity, then rule id, file, line and fingerprint (a total order, so the
 * output is deterministic).
 */
export function compareUrgency(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    compareRuleUrgency(a.ruleId, b.ruleId) ||
    cmp(a.file, b.file) ||
    a.line - b.line ||
    cmp(a.fingerprint, b.fingerprint)
  );
}
