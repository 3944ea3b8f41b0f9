import type { FailOn } from '../../audit/audit-config.js';
import { codeSpan } from '../markdown-escape.js';
import { omittedRunsNote } from '../run-cap.js';
import type { Report } from '../schema.js';
import { auditTitle } from '../title.js';

/** What the comment and the summary say a run was judged by. */
export interface Verdict {
  readonly failOn: FailOn;
  readonly failed: boolean;
  /** The commit the report describes ('' when unknown). */
  readonly headSha: string;
  /** The base commit it was compared with ('' when not compared). */
  readonly baseSha: string;
  /** The `name` input, shown in the title (see auditTitle). */
  readonly name?: string;
}

export const shortSha = (sha: string) => (/^[0-9a-f]{7,64}$/.test(sha) ? sha.slice(0, 7) : '');

/** The title and the one verdict line: passed / failed by fail-on, the counts, and the commits. */
export function verdictLines(report: Report, verdict: Verdict): string[] {
  const s = report.summary;
  const outcome = verdict.failed ? '❌ failed' : '✅ passed';
  const gate = verdict.failOn === 'never' ? 'fail-on: never' : `fail-on: ${verdict.failOn}`;
  const head = shortSha(verdict.headSha);
  const base = shortSha(verdict.baseSha);
  const commits = head === '' ? '' : ` Head ${codeSpan(head)}${base === '' ? '' : ` compared with base ${codeSpan(base)}`}.`;
  const runsNote = omittedRunsNote(report);
  return [
    `## ${auditTitle(verdict.name ?? '')}: ${outcome}`,
    '',
    `**${verdict.failed ? 'Failed' : 'Passed'}** (${gate}): **${s.findings.error}** error(s), **${s.findings.warning}** warning(s), **${s.findings.note}** note(s) in ${s.files} file(s), ${s.runs} run(s), ${s.toolCalls} tool call(s).${commits}`,
    ...(runsNote ? ['', runsNote] : []),
  ];
}
