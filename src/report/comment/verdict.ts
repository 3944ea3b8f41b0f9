import type { VerdictLines } from '../verdict/judge.js';
import { codeSpan } from '../render/markdown-escape.js';
import { omittedRunsNote } from '../run-cap.js';
import { coverageLine } from '../verdict/verdict.js';
import { unreadLines } from './unread-lines.js';
import type { Report } from '../schema.js';
import { auditTitle } from '../verdict/title.js';

/** What the comment and the summary say a run was judged by: the verdict (src/report/verdict/verdict.ts) and the commits. */
export interface Verdict extends VerdictLines {
  /** The commit the report describes ('' when unknown). */
  readonly headSha: string;
  /** The base commit it was compared with ('' when not compared). */
  readonly baseSha: string;
  /** The `name` input, shown in the title (see auditTitle). */
  readonly name?: string;
  /** Who judged: the Action (its `fail-on-empty` input) or the CLI (its `--allow-empty` flag); the Action when absent. */
  readonly edge?: 'action' | 'cli';
}

export const shortSha = (sha: string) => (/^[0-9a-f]{7,64}$/.test(sha) ? sha.slice(0, 7) : '');

/**
 * The title (the one-line verdict: nothing audited, files not read, partly read, new and existing
 * findings) and the line under it: how it was judged, the counts, what was read, and the commits;
 * then the trace files not read and the files that are not traces, one line each (unread-lines.ts).
 */
export function verdictLines(report: Report, verdict: Verdict): string[] {
  const s = report.summary;
  const v = verdict.verdict;
  const empty = verdict.edge === 'cli' ? (v.allowEmpty ? 'with --allow-empty' : 'without --allow-empty') : `fail-on-empty: ${v.allowEmpty ? 'false' : 'true'}`;
  const judgedBy = `${v.failed ? 'Failed' : v.state === 'nothing-audited' ? 'Nothing audited' : 'Passed'}** (fail-on: ${failOnOf(verdict)}, gate: ${v.gate}${v.state === 'nothing-audited' ? `, ${empty}` : ''})`;
  const head = shortSha(verdict.headSha);
  const base = shortSha(verdict.baseSha);
  const commits = head === '' ? '' : ` Head ${codeSpan(head)}${base === '' ? '' : ` compared with base ${codeSpan(base)}`}.`;
  const runsNote = omittedRunsNote(report);
  const suppressed = report.suppressed && report.suppressed.count > 0 ? ` ${report.suppressed.count} suppressed.` : '';
  return [
    `## ${auditTitle(verdict.name ?? '')}: ${v.headline}`,
    '',
    `**${judgedBy}: **${s.findings.error}** error(s), **${s.findings.warning}** warning(s), **${s.findings.note}** note(s); ${coverageLine(v.coverage, false)}.${suppressed}${commits}`,
    ...unreadLines(v.coverage),
    ...verdict.notes.flatMap((note) => ['', noteLine(note)]),
    ...(runsNote ? ['', runsNote] : []),
  ];
}

function failOnOf(verdict: Verdict): string {
  return verdict.verdict.failOn;
}

/** A note of ours that may quote the configuration (a glob): markdown-active characters escaped. */
export function noteLine(note: string): string {
  return `_${note.replace(/[\\`*_[\]<>|#@!~]/g, (c) => `\\${c}`)}_`;
}
