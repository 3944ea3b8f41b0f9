import type { Finding } from '../../model/finding.js';
import type { Report } from '../schema.js';
import { suppressedBy } from './suppress.js';
import { compareUrgency } from '../urgency.js';
import { headVersion, rulesRan } from './rule-versions.js';
import { compareVersions } from '../merge.js';

/** What the comparison says of a head finding (the JSON report's `findings[].baselineState`, SARIF's `baselineState`). */
export type BaselineState = 'new' | 'unchanged' | 'flaky' | 'not-compared';

/** A head finding some but not all of the base reports had: in `seenIn` of the `of` base reports that ran its rule at this version. */
export interface FlakyFinding {
  readonly finding: Finding;
  readonly seenIn: number;
  readonly of: number;
}

/**
 * What a pull request changed, finding by finding, against one or more base reports
 * (the last runs on the base branch, or the CLI's --baseline reports): matched on the
 * fingerprint, counted (a finding twice where the bases had it once is new once).
 */
export interface FindingDelta {
  /** Head findings no base report had, most urgent first: the only ones `gate: new` fails on. */
  readonly added: readonly Finding[];
  /** Findings every base report had and the head does not (and does not suppress), most urgent first. */
  readonly fixed: readonly Finding[];
  /** Head findings some but not all base reports had, most urgent first: counted, never failing the gate. */
  readonly flaky: readonly FlakyFinding[];
  /** Head findings of rules no base report ran at the head's version: neither new nor unchanged, most urgent first. */
  readonly notCompared: readonly Finding[];
  /** The base reports compared with. */
  readonly baselines: number;
  /** The newest tool version among the base reports (for "rules new since the base's 0.1.0"). */
  readonly baseVersion: string;
}

/** The comparison and the head's findings, each with its `baselineState` (in the head's order). */
export interface Compared {
  readonly delta: FindingDelta;
  readonly findings: Finding[];
}

/**
 * The head's findings against `bases` (newest first). For the j-th finding of a
 * fingerprint in the head, k of the n bases that ran its rule at the head's version
 * had it at least j times: n = 0 not compared, k = 0 new, k = n unchanged, else
 * flaky. A fingerprint every such base had more often than the head is fixed as
 * often; one only some had, gone from the head, is neither fixed nor listed. With
 * one base this is the plain count difference.
 */
export function compareWithBases(bases: readonly Report[], head: Report): Compared {
  const headRules = rulesRan(head);
  const baseRules = bases.map(rulesRan);
  const counts = bases.map((b) => countOf(b.findings));
  // The bases that ran a rule at the head's version, per rule id (none when the head did not run it).
  const comparable = new Map<string, number[]>();
  const basesFor = (ruleId: string, headRan: boolean) => {
    let list = comparable.get(ruleId);
    if (!list) {
      const version = headVersion(headRules, ruleId);
      list = headRan ? baseRules.flatMap((ran, i) => (ran.get(ruleId) === version ? [i] : [])) : [];
      comparable.set(ruleId, list);
    }
    return list;
  };
  const seen = new Map<string, number>();
  const findings: Finding[] = [];
  const added: Finding[] = [];
  const flaky: FlakyFinding[] = [];
  const notCompared: Finding[] = [];
  for (const f of head.findings) {
    const j = (seen.get(f.fingerprint) ?? 0) + 1;
    seen.set(f.fingerprint, j);
    const using = basesFor(f.ruleId, true);
    const k = using.filter((i) => (counts[i]!.get(f.fingerprint) ?? 0) >= j).length;
    const state: BaselineState = using.length === 0 ? 'not-compared' : k === 0 ? 'new' : k === using.length ? 'unchanged' : 'flaky';
    const { baselineState: _old, baselineSeen: _seen, ...plain } = f;
    const judged: Finding = { ...plain, baselineState: state, ...(state === 'flaky' ? { baselineSeen: { runs: k, of: using.length } } : {}) };
    findings.push(judged);
    if (state === 'new') added.push(judged);
    else if (state === 'flaky') flaky.push({ finding: judged, seenIn: k, of: using.length });
    else if (state === 'not-compared') notCompared.push(judged);
  }
  const fixed = fixedOf(bases, counts, seen, (ruleId) => basesFor(ruleId, headRules.has(ruleId)), head);
  const versions = bases.map((b) => b.tool.version);
  return {
    findings,
    delta: {
      added: added.sort(compareUrgency),
      fixed,
      flaky: flaky.sort((a, b) => compareUrgency(a.finding, b.finding)),
      notCompared: notCompared.sort(compareUrgency),
      baselines: bases.length,
      baseVersion: versions.sort(compareVersions).at(-1) ?? '',
    },
  };
}

/** The fixed findings: of each fingerprint, the occurrences past the head's count that every comparable base had. */
function fixedOf(bases: readonly Report[], counts: ReadonlyArray<Map<string, number>>, inHead: ReadonlyMap<string, number>, basesFor: (ruleId: string) => number[], head: Report): Finding[] {
  // A base finding the head suppresses is not fixed: it left the verdict, not the trace.
  const suppressed = head.suppressed ? suppressedBy(head.suppressed.entries) : () => -1;
  const out: Finding[] = [];
  const done = new Set<string>();
  for (const base of bases) {
    for (const f of base.findings) {
      if (done.has(f.fingerprint)) continue;
      done.add(f.fingerprint);
      const using = basesFor(f.ruleId);
      if (using.length === 0 || suppressed(f) >= 0) continue;
      const everywhere = Math.min(...using.map((i) => counts[i]!.get(f.fingerprint) ?? 0));
      const { baselineState: _state, baselineSeen: _seen, ...plain } = f;
      for (let n = inHead.get(f.fingerprint) ?? 0; n < everywhere; n += 1) out.push(plain);
    }
  }
  return out.sort(compareUrgency);
}

/**
 * The comparison a report carries (a merged report of compared shards: each finding's
 * `baselineState`, and `comparison`), or null when it carries none or a finding lacks its state.
 */
export function carriedComparison(report: Report): Compared | null {
  const carried = report.comparison;
  if (!carried || report.findings.some((f) => f.baselineState === undefined)) return null;
  const of = (state: BaselineState) => report.findings.filter((f) => f.baselineState === state).sort(compareUrgency);
  const flaky = of('flaky').map((finding) => ({ finding, seenIn: finding.baselineSeen?.runs ?? 1, of: finding.baselineSeen?.of ?? carried.baselines.length }));
  const versions = carried.baselines.map((b) => b.version).sort(compareVersions);
  return {
    findings: report.findings,
    delta: { added: of('new'), fixed: [...carried.fixed].sort(compareUrgency), flaky, notCompared: of('not-compared'), baselines: carried.baselines.length, baseVersion: versions.at(-1) ?? '' },
  };
}

function countOf(findings: readonly Finding[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of findings) out.set(f.fingerprint, (out.get(f.fingerprint) ?? 0) + 1);
  return out;
}

/** The findings new in `head` and gone from `base` (one base report, or several: see compareWithBases). */
export function findingDelta(base: Report | readonly Report[], head: Report): FindingDelta {
  return compareWithBases(Array.isArray(base) ? base : [base as Report], head).delta;
}

/** Count per rule id of a list of findings. */
export function countByRule(findings: readonly Finding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
  return counts;
}
