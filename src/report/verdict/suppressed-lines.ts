import { sanitizeText } from '../../sanitize/text.js';
import { codeSpan } from '../render/markdown-escape.js';
import type { Report } from '../schema.js';
import { locationOf } from '../triage.js';
import { plural } from './verdict.js';
import { groupDigits } from '../digits.js';

/** Suppressed findings shown in a comment or summary; the rest are counted (all are in the JSON report, up to its cap). */
export const SUPPRESSED_SHOWN = 20;

/** The suppressed findings, collapsed, each with its reason (reasons are the configuration's text: code spans). */
export function suppressedMarkdown(report: Pick<Report, 'suppressed'>, shown = SUPPRESSED_SHOWN): string[] {
  const s = report.suppressed;
  if (!s || s.count === 0) return [];
  const out = [`<details><summary>Suppressed: ${plural(s.count, 'finding', 'findings')} (accepted in the configuration's suppress:, not judged)</summary>`, ''];
  for (const f of s.findings.slice(0, shown)) {
    out.push(`- ${f.severity} ${codeSpan(f.ruleId)} at ${codeSpan(locationOf(f))}: ${codeSpan(sanitizeText(f.message, { maxChars: 200 }))}. Reason: ${codeSpan(sanitizeText(f.reason, { maxChars: 300 }))}`);
  }
  if (s.count > Math.min(shown, s.findings.length)) out.push(`- … and ${s.count - Math.min(shown, s.findings.length)} more (the JSON report lists up to ${groupDigits(s.findings.length)}).`);
  out.push('', '</details>');
  return out;
}

/** The suppressed findings for the terminal: one line each with its reason. */
export function suppressedText(report: Pick<Report, 'suppressed'>): string[] {
  const s = report.suppressed;
  if (!s || s.count === 0) return [];
  const out = ['', `Suppressed (${plural(s.count, 'finding', 'findings')}, not judged)`];
  for (const f of s.findings) out.push(`  ${f.severity} ${f.ruleId} at ${locationOf(f)}: ${sanitizeText(f.reason, { maxChars: 300 })}`);
  if (s.count > s.findings.length) out.push(`  … and ${s.count - s.findings.length} more`);
  return out;
}
