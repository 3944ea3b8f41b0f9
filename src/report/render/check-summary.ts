import type { Finding } from '../../model/finding.js';
import { sanitizeText } from '../../sanitize/text.js';
import type { AnnotationPlan } from './check-annotations.js';
import { codeSpan } from './markdown-escape.js';
import { locationOf } from '../triage.js';

/** The Checks API's limits on output.title and output.summary (characters). */
export const CHECK_TITLE_LIMIT = 255;
export const CHECK_SUMMARY_LIMIT = 65_535;
/** The share of the summary the list of findings outside the repository may take. */
const OUTSIDE_BUDGET = 12_000;

/** The check run's title: the one-line verdict (src/report/verdict/verdict.ts), within the Checks API's limit. */
export function checkTitle(headline: string): string {
  return [...headline].length <= CHECK_TITLE_LIMIT ? headline : `${[...headline].slice(0, CHECK_TITLE_LIMIT - 1).join('')}…`;
}

/**
 * The lines at the end of the check run's summary: how many findings are
 * annotated, and the findings GitHub cannot annotate (files not in the
 * repository) listed, as many as fit in their share of the summary, the rest counted.
 */
export function checkSummaryTail(plan: AnnotationPlan, total: number): string[] {
  const out: string[] = [];
  const shown = plan.annotations.length;
  const capped = plan.overCap > 0 ? ` (the ${plan.overCap} more in the repository are over the cap \`check-run-max-annotations\`)` : '';
  out.push(`**Annotations:** ${shown} of ${total} finding(s), most severe first${capped}.`);
  if (plan.notInRepository.length === 0) return out;
  out.push('', `**Not annotated** (${plan.notInRepository.length} finding(s) in files that are not committed at the head commit: read from an artifact, written during the run, or inside an archive):`, '');
  out.push('| Severity | Rule | Location | Message |', '|---|---|---|---|');
  let used = out.reduce((n, line) => n + line.length + 1, 0);
  let listed = 0;
  for (const f of plan.notInRepository) {
    const row = outsideRow(f);
    if (used + row.length + 1 > OUTSIDE_BUDGET) break;
    out.push(row);
    used += row.length + 1;
    listed += 1;
  }
  if (listed < plan.notInRepository.length) out.push('', `_${plan.notInRepository.length - listed} more not listed here; the JSON report has them all._`);
  return out;
}

function outsideRow(f: Finding): string {
  const text = (value: string, max: number) => codeSpan(sanitizeText(value, { maxChars: max }), true);
  return `| ${f.severity} | ${text(f.ruleId, 100)} | ${text(locationOf(f), 300)} | ${text(f.message, 300)} |`;
}
