import type { Report } from '../schema.js';
import { sanitizeText } from '../../sanitize/text.js';
import { omittedRunsNote } from '../run-cap.js';
import { locationOf, shortLocation, triageRows } from '../triage.js';
import type { VerdictLines } from '../verdict/judge.js';
import { suppressedText } from '../verdict/suppressed-lines.js';
import { noFindingsSentence } from '../verdict/verdict.js';
import { unreadReasonLine, type Coverage } from '../verdict/coverage.js';

/** The LOCATION column's width: longer locations lose their left end, never their file name and line. */
export const TEXT_LOCATION_WIDTH = 60;

/**
 * The terminal report: a summary line, the triage table, then every finding.
 * Deterministic: the same report renders to the same bytes. Text was sanitized
 * when the findings were made (no control characters reach the terminal).
 */
export function renderText(report: Report, judged?: VerdictLines): string {
  const s = report.summary;
  const out: string[] = [];
  if (judged) out.push(judged.verdict.headline, ...judged.notes, ...comparedLines(judged));
  out.push(
    `agent-trace-audit ${report.tool.version}: ${s.files} file(s), ${s.runs} run(s), ${s.toolCalls} tool call(s), ${s.toolResults} result(s)`,
  );
  out.push(`findings: ${s.findings.error} error(s), ${s.findings.warning} warning(s), ${s.findings.note} note(s)`);
  const runsNote = omittedRunsNote(report);
  if (runsNote) out.push(runsNote);
  out.push(...skippedLines(report));
  if (judged) out.push(...unreadText(judged.verdict.coverage));
  const rows = triageRows(report);
  if (rows.length === 0) {
    out.push('', noFindingsSentence(report), ...suppressedText(report));
    return `${out.join('\n')}\n`;
  }
  out.push('', 'Triage');
  for (const row of rows) {
    out.push(`  ${row.severity} ${row.ruleId} ×${row.count} (first at ${row.first.map(locationOf).join(', ')})`);
    out.push(`    likely cause: ${row.likelyCause}`);
    out.push(`    next action:  ${row.nextAction}`);
  }
  out.push('', 'Findings');
  out.push(
    ...table(
      ['SEVERITY', 'RULE', 'LOCATION', 'RUN', 'CALL', 'MESSAGE'],
      report.findings.map((f) => [f.severity, f.ruleId, shortLocation(locationOf(f), TEXT_LOCATION_WIDTH), f.runId ?? '-', f.callId ?? '-', f.message]),
      [undefined, undefined, undefined, 24, 24, undefined],
    ),
  );
  out.push(...suppressedText(report));
  return `${out.join('\n')}\n`;
}

/** What the findings were compared with: the counts, and each flaky finding with where it was seen. */
function comparedLines(judged: VerdictLines): string[] {
  const delta = judged.verdict.delta;
  if (!delta) return [];
  const reports = delta.baselines === 1 ? '1 baseline report' : `${delta.baselines} baseline reports`;
  const out = [`compared with ${reports}: ${delta.added.length} new, ${delta.flaky.length} flaky, ${delta.notCompared.length} not compared, ${delta.fixed.length} fixed`];
  for (const f of delta.flaky) out.push(`  flaky: ${f.finding.ruleId} at ${locationOf(f.finding)}: seen in ${f.seenIn} of the ${f.of} baseline reports`);
  if (delta.notCompared.length > 0) out.push(`  not compared: ${delta.notCompared.length} finding(s) of rules the baseline reports (${sanitizeText(delta.baseVersion, { maxChars: 40 })}) did not run at this rule version`);
  return out;
}

/**
 * One line per file whose parser left records out (`files[].skipped` of the JSON
 * report): the counts by reason, each with its first line. Reasons quote names
 * from the trace, so they pass the sanitizer again.
 */
function skippedLines(report: Report): string[] {
  const out: string[] = [];
  for (const file of report.files) {
    const skipped = file.skipped ?? [];
    if (skipped.length === 0) continue;
    const total = skipped.reduce((n, s) => n + s.count, 0);
    const reasons = skipped.map((s) => `${s.count} ${sanitizeText(s.reason, { maxChars: 120 })} (first at line ${s.firstLine})`);
    out.push(`skipped ${total} record(s) of ${sanitizeText(file.path, { maxChars: 300 })}: ${reasons.join('; ')}`);
  }
  return out;
}

/** One line per trace file not read (with its reason) and per file that is not a trace (not counted). */
function unreadText(c: Coverage): string[] {
  const clean = (text: string) => sanitizeText(text, { maxChars: 300 });
  return [
    ...c.unread.map((file) => `not read: ${clean(file.path)}: ${unreadReasonLine(file, clean)}`),
    ...c.notTraces.map((file) => `not a trace (not counted): ${clean(file.path)}: ${clean(file.reason)}`),
  ];
}

/** A plain column table; `widths` caps columns (undefined: no cap), the last column is never padded. */
function table(head: string[], rows: string[][], widths: Array<number | undefined>): string[] {
  const cap = (text: string, i: number) => {
    const max = widths[i];
    return max !== undefined && [...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text;
  };
  const cells = [head, ...rows].map((row) => row.map(cap));
  const size = head.map((_, i) => Math.max(...cells.map((row) => [...row[i]!].length)));
  return cells.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(size[i]! - [...cell].length)))
      .join('  ')
      .trimEnd(),
  );
}
