import { ruleGuidance } from '../comment/guidance.js';
import { codeSpan } from './markdown-escape.js';
import { omittedRunsNote } from '../run-cap.js';
import type { Report } from '../schema.js';
import { locationOf, triageRows } from '../triage.js';
import { suppressedMarkdown } from '../verdict/suppressed-lines.js';
import { noFindingsSentence } from '../verdict/verdict.js';
import { groupDigits } from '../digits.js';

/** GitHub's limits: an issue comment body, and one step's job summary. */
export const COMMENT_LIMIT = 65_536;
export const SUMMARY_LIMIT = 1024 * 1024;

const SEVERITY_ICON = { error: '🔴', warning: '🟠', note: '🔵' } as const;

/** Findings listed at most, whatever the room. */
const LISTED_MAX = 1000;

export interface BudgetedParts {
  /** The heading (auditTitle of the `name` input); `agent-trace-audit` when absent. */
  readonly title?: string;
  /** The one-line verdict, put in the heading after the title (`## agent-trace-audit: …`). */
  readonly headline?: string;
  /** Replaces the title's count line (the verdict, new and fixed findings): kept whole, right under the title. */
  readonly lead?: readonly string[];
  /** Lines we wrote (run link, artifact link, baseline comparison): kept whole, rendered before the findings. */
  readonly head?: readonly string[];
  /** Fingerprints of the findings new against the base branch: the rule table gets a New column. Absent: not compared. */
  readonly added?: ReadonlySet<string>;
  /** Hidden marker or footer, kept whole at the very end. */
  readonly tail?: readonly string[];
  /** Where everything is when something was cut (our own sentence); the JSON report by default. */
  readonly rest?: string;
}

export interface Budgeted {
  readonly markdown: string;
  /** Findings listed in detail, out of the report's total. */
  readonly findingsShown: number;
  /** Triage rows shown, out of all rules that fired. */
  readonly rowsShown: number;
}

/**
 * The markdown report fitted into `limit` characters (UTF-16 units, as GitHub
 * counts). Detail degrades in steps (fewer listed findings, then fewer first
 * locations, then fewer triage rows) and the output always says how much was
 * cut. Each step removes whole lines, so markdown is never cut mid-construct.
 */
export function renderWithinBudget(report: Report, limit: number, parts: BudgetedParts = {}): Budgeted {
  const total = report.findings.length;
  const rowsAll = triageRows(report, 3).length;
  const attempt = (findings: number, first: number, rows: number) => render(report, parts, findings, first, rows);
  const fits = (text: string) => text.length <= limit;
  let best = attempt(Math.min(total, LISTED_MAX), 3, rowsAll);
  if (fits(best.markdown)) return best;
  // Binary search for the largest number of listed findings that still fits.
  let lo = 0;
  let hi = Math.min(total, LISTED_MAX);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(attempt(mid, 3, rowsAll).markdown)) lo = mid;
    else hi = mid - 1;
  }
  best = attempt(lo, 3, rowsAll);
  if (fits(best.markdown)) return best;
  best = attempt(0, 1, rowsAll);
  for (let rows = rowsAll; rows >= 0 && !fits(best.markdown); rows--) best = attempt(0, 1, rows);
  if (fits(best.markdown)) return best;
  // Our own head/tail lines alone overflow: a bare, always-valid fallback.
  const bare = `## ${parts.title ?? 'agent-trace-audit'}\n\nThe report did not fit in ${limit} characters; it is in the JSON report.\n`;
  const tail = (parts.tail ?? []).join('\n');
  return { markdown: tail && bare.length + tail.length + 1 <= limit ? `${bare}\n${tail}\n` : bare.slice(0, limit), findingsShown: 0, rowsShown: 0 };
}

function render(report: Report, parts: BudgetedParts, maxFindings: number, firstCount: number, maxRows: number): Budgeted {
  const s = report.summary;
  const heading = parts.title ?? 'agent-trace-audit';
  const out: string[] = [parts.headline ? `## ${heading}: ${parts.headline}` : `## ${heading}`, ''];
  if (parts.lead && parts.lead.length > 0) out.push(...parts.lead);
  else {
    out.push(`**${s.findings.error}** error(s), **${s.findings.warning}** warning(s), **${s.findings.note}** note(s) in ${s.files} file(s), ${s.runs} run(s), ${s.toolCalls} tool call(s).`);
    const runsNote = omittedRunsNote(report);
    if (runsNote) out.push('', runsNote);
  }
  if (parts.head && parts.head.length > 0) out.push('', ...parts.head);
  const rows = triageRows(report, firstCount);
  const newCount = new Map<string, number>();
  if (parts.added) for (const f of report.findings) if (parts.added.has(f.fingerprint)) newCount.set(f.ruleId, (newCount.get(f.ruleId) ?? 0) + 1);
  const shownRows = rows.slice(0, maxRows);
  const findings = report.findings.slice(0, maxFindings);
  if (rows.length === 0) {
    out.push('', noFindingsSentence(report));
  } else {
    if (shownRows.length > 0) {
      // Five narrow columns that fit 1,000 px: rule, severity, count, new (when compared), first location; the guidance below, one collapsed block per rule.
      const compared = parts.added !== undefined;
      out.push('', compared ? '| Rule | Severity | Count | New | First at |' : '| Rule | Severity | Count | First at |', compared ? '|---|---|---:|---:|---|' : '|---|---|---:|---|');
      for (const row of shownRows) {
        const at = row.first.slice(0, 1).map((f) => codeSpan(locationOf(f), true)).join(' ');
        const added = compared ? ` ${newCount.get(row.ruleId) ?? 0} |` : '';
        out.push(`| ${codeSpan(row.ruleId, true)} | ${SEVERITY_ICON[row.severity]}&nbsp;${row.severity} | ${row.count} |${added} ${at} |`);
      }
      const guidance = shownRows.flatMap((row) => ruleGuidance(row.ruleId));
      if (guidance.length > 0) out.push('', '**Likely cause and next action**, per rule:', '', ...guidance);
    }
    if (findings.length > 0) {
      out.push('', '<details><summary>Findings</summary>', '', '| Severity | Rule | Location | Message |', '|---|---|---|---|');
      for (const f of findings) {
        out.push(`| ${f.severity} | ${codeSpan(f.ruleId, true)} | ${codeSpan(locationOf(f), true)} | ${codeSpan(f.message, true)} |`);
      }
      out.push('', '</details>');
    }
    const cut: string[] = [];
    if (shownRows.length < rows.length) cut.push(`${rows.length - shownRows.length} of ${rows.length} triage row(s)`);
    if (findings.length < report.findings.length) cut.push(`${report.findings.length - findings.length} of ${report.findings.length} finding(s)`);
    // Cut by the room (GitHub's size limit), or only by the listing cap (every row shown, the list full).
    const why = shownRows.length === rows.length && findings.length === LISTED_MAX ? `the list stops at ${groupDigits(LISTED_MAX)} findings` : "to stay within GitHub's size limit";
    if (cut.length > 0) out.push('', `_Not shown here (${why}): ${cut.join(', ')}. ${parts.rest ?? 'The JSON report has everything.'}_`);
  }
  const suppressed = suppressedMarkdown(report);
  if (suppressed.length > 0) out.push('', ...suppressed);
  if (parts.tail && parts.tail.length > 0) out.push('', ...parts.tail);
  return { markdown: `${out.join('\n')}\n`, findingsShown: findings.length, rowsShown: shownRows.length };
}
