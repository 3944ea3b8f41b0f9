/**
 * Bounds on the findings an input can make. A crafted trace turns bytes into
 * findings cheaply (one `malformed-record` per 3-byte line, a million from a
 * 3 KB `.gz`), so each rule lists at most `perRulePerFile` findings in one file
 * and the audit at most `perAudit`; what is not listed is summarized by one
 * finding that gives its count. The report's size follows (docs/configuration.md).
 */
import type { Finding, Severity } from '../../model/finding.js';
import { FindingStore, type FindingStoreOptions } from './finding-store.js';
import { makeFinding } from './findings.js';
import type { FindingDraft } from '../rules/rule-types.js';

export interface FindingCaps {
  /** Findings one rule lists for one file (`limits.max-findings-per-rule`). */
  readonly perRulePerFile: number;
  /** Findings the audit lists in all (`limits.max-findings`). */
  readonly perAudit: number;
}

export const DEFAULT_FINDING_CAPS: FindingCaps = { perRulePerFile: 1_000, perAudit: 10_000 };

interface Overflow {
  count: number;
  readonly first: FindingDraft;
}

/** Counts each file's findings per rule; past the cap a finding is only counted. */
export class PerFileCap {
  /** file → rule id → findings listed so far. */
  readonly #listed = new Map<string, Map<string, number>>();
  /** file → rule id → what was not listed. */
  readonly #over = new Map<string, Map<string, Overflow>>();

  constructor(private readonly cap: number) {}

  /** True when the finding is listed; false when it is only counted. */
  admit(ruleId: string, draft: FindingDraft): boolean {
    const file = draft.loc.file;
    let listed = this.#listed.get(file);
    if (!listed) this.#listed.set(file, (listed = new Map()));
    const n = listed.get(ruleId) ?? 0;
    if (n < this.cap) {
      listed.set(ruleId, n + 1);
      return true;
    }
    let over = this.#over.get(file);
    if (!over) this.#over.set(file, (over = new Map()));
    const entry = over.get(ruleId);
    if (entry) entry.count += 1;
    else over.set(ruleId, { count: 1, first: draft });
    return false;
  }

  /** The summary of what `file` (every file when not given) did not list, one per rule; the counters of those files are dropped. */
  release(file?: string): Array<[string, FindingDraft]> {
    const files = file === undefined ? [...this.#over.keys()].sort() : [file];
    const out: Array<[string, FindingDraft]> = [];
    for (const name of files) {
      const over = this.#over.get(name);
      for (const [ruleId, { count, first }] of [...(over ?? new Map<string, Overflow>())].sort(([a], [b]) => (a < b ? -1 : 1))) {
        out.push([
          ruleId,
          {
            loc: first.loc,
            runId: first.runId ?? null,
            message: `${count} more ${ruleId} finding(s) in this file from line ${first.loc.line} on are not listed: a rule lists at most ${this.cap} per file (limits.max-findings-per-rule)`,
            key: 'findings-not-listed',
          },
        ]);
      }
      this.#over.delete(name);
    }
    if (file === undefined) this.#listed.clear();
    else this.#listed.delete(file);
    return out;
  }
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, note: 1 };

/**
 * The store's first `max` findings in report order, and one finding that counts the
 * rest (its rule the most frequent one cut, its severity the highest cut, so the
 * verdict is unchanged). Returns the store itself when it holds no more than `max`;
 * otherwise a new store, and the old one is closed.
 */
export function capAudit(store: FindingStore, max: number, spill?: FindingStoreOptions): FindingStore {
  if (store.size <= max) return store;
  const kept = new FindingStore(spill);
  try {
    let n = 0;
    const cut = new Map<string, number>();
    let severity: Severity = 'note';
    for (const finding of store) {
      if (n < max) {
        kept.add(finding);
        n += 1;
        continue;
      }
      cut.set(finding.ruleId, (cut.get(finding.ruleId) ?? 0) + 1);
      if (RANK[finding.severity] > RANK[severity]) severity = finding.severity;
    }
    const byCount = [...cut].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    const total = byCount.reduce((sum, [, count]) => sum + count, 0);
    const top = byCount[0]![0];
    kept.add(summaryFinding(top, severity, total, max, byCount));
    store.close();
    return kept;
  } catch (error) {
    kept.close();
    throw error;
  }
}

function summaryFinding(ruleId: string, severity: Severity, total: number, max: number, byCount: ReadonlyArray<[string, number]>): Finding {
  const rules = byCount.map(([id, count]) => `${id} ${count}`).join(', ');
  return makeFinding(ruleId, severity, {
    loc: { file: '(audit)', line: 0 },
    message: `${total} more finding(s) are not listed: the audit lists at most ${max} (limits.max-findings); by rule: ${rules}`,
    key: 'findings-not-listed',
  });
}
