import type { ToolCall, ToolResult } from '../../model/records.js';
import type { Diagnostic, ParseInput, RecordSink } from '../types.js';
import { compileMapping } from './compile.js';
import { parseMapped } from './custom-format.js';
import type { CustomFormatSpec } from './mapping.js';

/** How many calls and results a try keeps to show (the counts are of all of them). */
export const SHOWN_ITEMS = 5;

/** What a mapping extracted from one file: the first items, the counts, what is unmatched, and the mapping's warnings. */
export interface MappingTry {
  readonly calls: readonly ToolCall[];
  readonly results: readonly ToolResult[];
  readonly callCount: number;
  readonly resultCount: number;
  readonly runs: number;
  readonly catalogTools: number;
  /** Calls whose id no result answers, and results whose id no call has (items without an id are not counted). */
  readonly unansweredCalls: number;
  readonly unmatchedResults: number;
  /** Distinct ids of calls and of results (0: that side carries no ids, so nothing is matched by id). */
  readonly callIds: number;
  readonly resultIds: number;
  /** The mapping's misses (partial-read) and the file's unread records (malformed-record, too-many-keys). */
  readonly diagnostics: readonly Diagnostic[];
  /** Skipped records by reason: count and first line. */
  readonly skipped: ReadonlyMap<string, { count: number; firstLine: number; toolLike: boolean }>;
}

/** Reads `input` with the mapping alone (no detection, no rules): what `formats try` prints. */
export async function tryMapping(spec: CustomFormatSpec, input: ParseInput): Promise<MappingTry> {
  const calls: ToolCall[] = [];
  const results: ToolResult[] = [];
  const diagnostics: Diagnostic[] = [];
  const skipped = new Map<string, { count: number; firstLine: number; toolLike: boolean }>();
  const runs = new Set<string | null>();
  const callIds = new Set<string>();
  const resultIds = new Set<string>();
  const counts = { calls: 0, results: 0, tools: 0 };
  const sink: RecordSink = {
    record(record) {
      runs.add(record.runId);
      if (record.kind === 'tool_call') {
        counts.calls += 1;
        if (record.callId !== null) callIds.add(record.callId);
        if (calls.length < SHOWN_ITEMS) calls.push(record);
      } else if (record.kind === 'tool_result') {
        counts.results += 1;
        if (record.callId !== null) resultIds.add(record.callId);
        if (results.length < SHOWN_ITEMS) results.push(record);
      } else if (record.kind === 'catalog') counts.tools += record.tools.length;
    },
    diagnostic: (d) => diagnostics.push(d),
    skip(s) {
      const entry = skipped.get(s.reason) ?? { count: 0, firstLine: s.line, toolLike: false };
      entry.count += 1;
      entry.firstLine = Math.min(entry.firstLine, s.line);
      entry.toolLike ||= s.toolLike === true;
      skipped.set(s.reason, entry);
    },
  };
  await parseMapped(spec, compileMapping(spec), input, sink);
  return {
    calls,
    results,
    callCount: counts.calls,
    resultCount: counts.results,
    runs: runs.size,
    catalogTools: counts.tools,
    unansweredCalls: [...callIds].filter((id) => !resultIds.has(id)).length,
    unmatchedResults: [...resultIds].filter((id) => !callIds.has(id)).length,
    callIds: callIds.size,
    resultIds: resultIds.size,
    diagnostics,
    skipped,
  };
}
