import type { Finding } from '../../model/finding.js';
import type { Report } from '../schema.js';
import { suppressedBy } from './suppress.js';
import { compareUrgency } from '../urgency.js';

/** What a pull request changed, finding by finding: matched on the fingerprint (rule, file, run, call, tool, key). */
export interface FindingDelta {
  /** Head findings whose fingerprint the base report does not have (as often as it has it), most urgent first. */
  readonly added: readonly Finding[];
  /** Base findings whose fingerprint the head report no longer has, most urgent first. */
  readonly fixed: readonly Finding[];
}

/**
 * The findings new in `head` and gone from `base`. Fingerprints are counted,
 * not just matched: a finding that appears twice where the base had it once
 * is new once.
 */
export function findingDelta(base: Report, head: Report): FindingDelta {
  // A base finding the head suppresses is not fixed: it left the verdict, not the trace.
  const suppressed = head.suppressed ? suppressedBy(head.suppressed.entries) : () => -1;
  return { added: minus(head.findings, base.findings), fixed: minus(base.findings, head.findings).filter((f) => suppressed(f) < 0) };
}

function minus(from: readonly Finding[], other: readonly Finding[]): Finding[] {
  const left = new Map<string, number>();
  for (const f of other) left.set(f.fingerprint, (left.get(f.fingerprint) ?? 0) + 1);
  const out: Finding[] = [];
  for (const f of from) {
    const n = left.get(f.fingerprint) ?? 0;
    if (n > 0) left.set(f.fingerprint, n - 1);
    else out.push(f);
  }
  return out.sort(compareUrgency);
}

/** Count per rule id of a list of findings. */
export function countByRule(findings: readonly Finding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
  return counts;
}
