import picomatch from 'picomatch';
import type { Finding, Severity } from '../../model/finding.js';
import type { Report } from '../schema.js';

/** One `suppress:` entry of the configuration file: a fingerprint, or a rule (in the files a glob matches), and why. */
export interface Suppression {
  readonly fingerprint?: string;
  readonly rule?: string;
  /** A glob over the report's file names (`traces/**`); every file when absent. */
  readonly file?: string;
  readonly reason: string;
}

/** Suppressed findings listed in the report; the rest are counted. */
export const MAX_SUPPRESSED_LISTED = 1_000;

export type SuppressedSection = NonNullable<Report['suppressed']>;

/** The entry as one short line of our own words (no trace text: ids, a hex fingerprint, the glob as given). */
export function describeSuppression(s: Suppression): string {
  if (s.fingerprint) return `fingerprint ${s.fingerprint}`;
  return `rule ${s.rule ?? ''}${s.file ? ` in ${JSON.stringify(s.file)}` : ''}`;
}

/** A matcher per entry: the first entry that matches a finding suppresses it. */
function matchers(entries: readonly Suppression[]): Array<(f: Pick<Finding, 'fingerprint' | 'ruleId' | 'file'>) => boolean> {
  return entries.map((entry) => {
    if (entry.fingerprint) return (f) => f.fingerprint === entry.fingerprint;
    const glob = entry.file ? picomatch(entry.file, { dot: true }) : () => true;
    return (f) => f.ruleId === entry.rule && glob(f.file);
  });
}

/** The index of the entry that suppresses `finding`, or -1. */
export function suppressedBy(entries: readonly Suppression[]): (finding: Pick<Finding, 'fingerprint' | 'ruleId' | 'file'>) => number {
  const match = matchers(entries);
  return (finding) => match.findIndex((m) => m(finding));
}

/**
 * The report with the suppressed findings taken out of its findings, counts and
 * rules, and listed in `suppressed` with their reason (what the verdict, the
 * SARIF file and the annotations see is what is left). Entries that matched
 * nothing keep `matched: 0` (the verdict says so). A report that was suppressed
 * before (a shard report merged) keeps what it listed: counts add up.
 */
export function suppressReport(report: Report, entries: readonly Suppression[]): Report {
  if (entries.length === 0) return report;
  const by = suppressedBy(entries);
  const kept: Finding[] = [];
  const matched = entries.map(() => 0);
  const listed: SuppressedSection['findings'] = [...(report.suppressed?.findings ?? [])];
  let count = report.suppressed?.count ?? 0;
  for (const finding of report.findings) {
    const index = by(finding);
    if (index < 0) {
      kept.push(finding);
      continue;
    }
    matched[index]! += 1;
    count += 1;
    if (listed.length < MAX_SUPPRESSED_LISTED) listed.push({ ...finding, reason: entries[index]!.reason });
  }
  const before = new Map((report.suppressed?.entries ?? []).map((e) => [describeSuppression(e), e.matched]));
  const counts: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const finding of kept) counts[finding.severity] += 1;
  const ruleIds = new Set(kept.map((f) => f.ruleId));
  return {
    ...report,
    summary: { ...report.summary, findings: counts },
    rules: report.rules.filter((rule) => ruleIds.has(rule.id)),
    findings: kept,
    suppressed: {
      count,
      entries: entries.map((entry, i) => ({ ...entry, matched: matched[i]! + (before.get(describeSuppression(entry)) ?? 0) })),
      findings: listed,
    },
  };
}

/** Our own lines about entries that matched nothing (a note each). */
export function unusedSuppressionNotes(report: Pick<Report, 'suppressed'>): string[] {
  return (report.suppressed?.entries ?? []).filter((e) => e.matched === 0).map((e) => `note: the suppression of ${describeSuppression(e)} matched no finding; remove it or correct it`);
}
