import { codeSpan, ownCell } from './markdown-escape.js';
import { omittedRunsNote } from '../run-cap.js';
import type { Report } from '../schema.js';
import { locationOf, triageRows } from '../triage.js';
import { noteLine } from '../comment/verdict.js';
import type { VerdictLines } from '../verdict/judge.js';
import { suppressedMarkdown } from '../verdict/suppressed-lines.js';
import { noFindingsSentence } from '../verdict/verdict.js';

const SEVERITY_ICON = { error: '🔴', warning: '🟠', note: '🔵' } as const;

/**
 * The markdown report: summary counts, the triage table (finding, likely
 * cause, next action) and the first findings. Trace text only in code spans.
 */
export function renderMarkdown(report: Report, judged?: VerdictLines, options: { maxFindings?: number } = {}): string {
  const s = report.summary;
  const out: string[] = [];
  out.push(judged ? `## agent-trace-audit: ${judged.verdict.headline}` : '## agent-trace-audit');
  out.push('');
  if (judged && judged.notes.length > 0) out.push(...judged.notes.map(noteLine), '');
  out.push(
    `**${s.findings.error}** error(s), **${s.findings.warning}** warning(s), **${s.findings.note}** note(s) in ${s.files} file(s), ${s.runs} run(s), ${s.toolCalls} tool call(s).`,
  );
  const runsNote = omittedRunsNote(report);
  if (runsNote) out.push('', runsNote);
  const rows = triageRows(report);
  if (rows.length === 0) {
    out.push('', noFindingsSentence(report));
    const suppressed = suppressedMarkdown(report);
    if (suppressed.length > 0) out.push('', ...suppressed);
    return `${out.join('\n')}\n`;
  }
  out.push('', '| | Finding | Count | Likely cause | Next action | First at |', '|---|---|---:|---|---|---|');
  for (const row of rows) {
    const at = row.first.map((f) => codeSpan(locationOf(f), true)).join(' ');
    out.push(`| ${SEVERITY_ICON[row.severity]} | ${codeSpan(row.ruleId, true)} | ${row.count} | ${ownCell(row.likelyCause)} | ${ownCell(row.nextAction)} | ${at} |`);
  }
  const max = options.maxFindings ?? 50;
  out.push('', '<details><summary>Findings</summary>', '', '| Severity | Rule | Location | Message |', '|---|---|---|---|');
  for (const f of report.findings.slice(0, max)) {
    out.push(`| ${f.severity} | ${codeSpan(f.ruleId, true)} | ${codeSpan(locationOf(f), true)} | ${codeSpan(f.message, true)} |`);
  }
  out.push('', '</details>');
  // This report may be the only one written (`--format markdown -o`): name how to get the rest, not a file that may not exist.
  if (report.findings.length > max) out.push('', `${report.findings.length - max} more finding(s) not listed here: \`--format json\` (or \`text\`) lists them all.`);
  const suppressed = suppressedMarkdown(report);
  if (suppressed.length > 0) out.push('', ...suppressed);
  return `${out.join('\n')}\n`;
}
