import { mostSevere } from '../most-severe.js';
import { omittedRunsNote } from '../run-cap.js';
import type { Report } from '../schema.js';
import { rankRuns, runIndexOf } from '../timeline/rank.js';
import type { RunTimeline } from '../../model/timeline.js';

/**
 * Findings the page holds: the list stays responsive up to here (tested with
 * 100,000), and the page stays a size a browser opens. Past it, the page holds
 * the most severe, says how many it left out, and counts per rule still cover all.
 */
export const HTML_MAX_FINDINGS = 100_000;

/**
 * What the page script reads: the report in columns (string tables for rules,
 * files and tools; one array per field) so 100,000 findings parse and filter
 * fast, and the runs worst first with their bars flattened to numbers.
 */
export interface PageData {
  readonly version: string;
  readonly summary: Report['summary'];
  readonly rules: Report['rules'];
  readonly strings: { readonly rules: string[]; readonly files: string[]; readonly tools: string[] };
  /** Findings of each rule (index into strings.rules) in the whole report, those left out included. */
  readonly ruleTotals: number[];
  /** Findings of the report the page does not hold (the least severe, past HTML_MAX_FINDINGS). */
  readonly omitted: number;
  /** Said under the summary when the report does not list every run (limits.max-runs); null when it does. */
  readonly runsNote: string | null;
  readonly findings: {
    /** Index into strings.rules / strings.files / strings.tools (-1: none). */
    readonly rule: number[];
    /** 0 error, 1 warning, 2 note. */
    readonly severity: number[];
    readonly file: number[];
    readonly line: number[];
    readonly tool: number[];
    /** Index into runs (-1: no run drawn). */
    readonly run: number[];
    readonly message: string[];
    readonly callId: Array<string | null>;
    readonly runId: Array<string | null>;
  };
  readonly runs: Array<{
    readonly file: string;
    readonly runId: string | null;
    readonly timed: boolean;
    readonly end: number;
    readonly lanes: readonly string[];
    /** Six numbers per bar: lane, start, end (-1: open), line, flags, retry storm (0: none). */
    readonly bars: number[];
    readonly callIds: Array<string | null>;
    readonly truncated: number;
    readonly counts: { readonly error: number; readonly warning: number; readonly note: number };
  }>;
}

const SEVERITY_INDEX = { error: 0, warning: 1, note: 2 } as const;

export function pageData(report: Report, timelines: readonly RunTimeline[], maxFindings = HTML_MAX_FINDINGS): PageData {
  // A report that lists only some runs (limits.max-runs) draws as many, the worst first.
  const ranked = rankRuns(report, timelines).slice(0, report.omittedRuns ? report.runs.length : undefined);
  const runsNote = omittedRunsNote(report);
  const position = new Map<number, number>();
  ranked.forEach((r, i) => position.set(r.index, i));
  const { kept, omitted } = mostSevere(report.findings, maxFindings);
  const owners = runIndexOf(kept, timelines);
  const rules = table();
  const files = table();
  const tools = table();
  const ruleTotals: number[] = [];
  for (const finding of report.findings) {
    const rule = rules.id(finding.ruleId);
    ruleTotals[rule] = (ruleTotals[rule] ?? 0) + 1;
  }
  const f: PageData['findings'] = { rule: [], severity: [], file: [], line: [], tool: [], run: [], message: [], callId: [], runId: [] };
  kept.forEach((finding, i) => {
    f.rule.push(rules.id(finding.ruleId));
    f.severity.push(SEVERITY_INDEX[finding.severity]);
    f.file.push(files.id(finding.file));
    f.line.push(finding.line);
    f.tool.push(finding.tool === null ? -1 : tools.id(finding.tool));
    const owner = owners[i]!;
    f.run.push(owner < 0 ? -1 : (position.get(owner) ?? -1));
    f.message.push(finding.message);
    f.callId.push(finding.callId);
    f.runId.push(finding.runId);
  });
  const runs = ranked.map(({ timeline, counts }) => {
    const bars: number[] = [];
    for (const bar of timeline.bars) bars.push(bar.lane, bar.start, bar.end === null ? -1 : bar.end, bar.line, bar.flags, bar.storm);
    return {
      file: timeline.file,
      runId: timeline.runId,
      timed: timeline.timed,
      end: timeline.end,
      lanes: timeline.lanes,
      bars,
      callIds: timeline.bars.map((bar) => bar.callId),
      truncated: timeline.truncated,
      counts,
    };
  });
  return {
    version: report.tool.version,
    summary: report.summary,
    rules: report.rules,
    strings: { rules: rules.values, files: files.values, tools: tools.values },
    ruleTotals,
    omitted,
    runsNote: runsNote !== null && report.omittedRuns && timelines.length > 0 ? `${runsNote} The timeline draws ${ranked.length} run(s), the worst first.` : runsNote,
    findings: f,
    runs,
  };
}

function table(): { readonly values: string[]; id(value: string): number } {
  const values: string[] = [];
  const ids = new Map<string, number>();
  return {
    values,
    id(value) {
      let id = ids.get(value);
      if (id === undefined) {
        id = values.length;
        ids.set(value, id);
        values.push(value);
      }
      return id;
    },
  };
}

/**
 * JSON that is safe inside `<script type="application/json">`: `<`, `>` and `&`
 * as \u escapes (no `</script>`, no `<!--`), and the two line separators too.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
