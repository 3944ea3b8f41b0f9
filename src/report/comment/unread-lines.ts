import { sanitizeText } from '../../sanitize/text.js';
import { codeSpan } from '../render/markdown-escape.js';
import { unreadBreakdown, unreadReasonLine, type Coverage } from '../verdict/coverage.js';
import { plural } from '../verdict/verdict.js';
import { groupDigits } from '../digits.js';

/** Up to this many files the list is open on the first screen; past it, collapsed. */
export const UNREAD_OPEN_MAX = 8;
/** Files listed at most (the rest counted, named in the JSON report's verdict.coverage). */
export const UNREAD_LISTED_MAX = 50;

/** A report's file name in a code span: sanitized again (a merged or stored report's names too). */
const path = (name: string) => codeSpan(sanitizeText(name, { maxChars: 300 }));

/**
 * The first screen's list of the trace files not read, one line each with its reason, and apart
 * the files that are not traces (never counted): open up to UNREAD_OPEN_MAX files, collapsed past it.
 */
export function unreadLines(c: Coverage): string[] {
  const out: string[] = [];
  if (c.unread.length > 0) {
    const title = `${groupDigits(c.unread.length)} of ${plural(c.files, 'trace file', 'trace files')} not read (${unreadBreakdown(c.unread)})`;
    out.push('', ...listed(title, c.unread.map((file) => `- ${path(file.path)}: ${unreadReasonLine(file, codeSpan)}`), 'verdict.coverage.unread'));
  }
  if (c.notTraces.length > 0) {
    const title = `${plural(c.notTraces.length, 'file', 'files')} matched that ${c.notTraces.length === 1 ? 'is' : 'are'} not a trace (not counted)`;
    out.push('', ...listed(title, c.notTraces.map((file) => `- ${path(file.path)}: ${sanitizeText(file.reason, { maxChars: 80 }).replace(/[\\`*_[\]<>|#@!~]/g, '')}`), 'verdict.coverage.notTraces'));
  }
  return out;
}

function listed(title: string, items: readonly string[], where: string): string[] {
  const shown = items.slice(0, UNREAD_LISTED_MAX);
  const more = items.length > shown.length ? ['', `_${groupDigits(items.length - shown.length)} more in the JSON report (\`${where}\`)._`] : [];
  if (items.length <= UNREAD_OPEN_MAX) return [`**${title}:**`, '', ...shown, ...more];
  return [`<details><summary>${title}</summary>`, '', ...shown, ...more, '', '</details>'];
}
