import type { AuditConfig } from './audit-config.js';
import type { Diagnostic, TraceFormat } from '../../ingest/types.js';
import type { AuditInput } from '../../model/audit.js';
import type { FileWork } from './file-audit.js';
import { labelWords, scanToolShapes, SCAN_BYTES, type ToolShapeScan } from './tool-shape-scan.js';

/** The calls and results a file's runs held (listed and omitted). */
export function toolCounts(work: FileWork): { calls: number; results: number } {
  let calls = work.omitted.toolCalls;
  let results = work.omitted.toolResults;
  for (const run of work.runs) {
    calls += run.summary.toolCalls;
    results += run.summary.toolResults;
  }
  return { calls, results };
}

/** A file read to the end with no tool call or result (and no skipped tool-like record): its text is looked through. */
export async function scanIfEmpty(input: AuditInput, config: AuditConfig, work: FileWork): Promise<ToolShapeScan | null> {
  const { calls, results } = toolCounts(work);
  if (calls + results > 0 || work.skips.toolLike > 0 || (work.misread ?? 0) > 0) return null;
  return scanToolShapes(input.path, input.display, config.limits);
}

/**
 * A file its parser claimed and read no tool call or result from: `partial-read`
 * naming the tool-shaped content its text holds, or one note that it holds none.
 */
export function emptyFileFinding(format: TraceFormat, scan: ToolShapeScan, diagnose: (d: Diagnostic) => void): void {
  if (scan.count > 0) {
    const within = scan.cut ? ` in its first ${SCAN_BYTES / 1024 / 1024} MiB` : '';
    diagnose({
      ruleId: 'partial-read',
      line: scan.firstLine,
      message: `no tool call was read ('${format.id}'), but the file holds ${scan.count} tool-shaped place(s)${within}: ${labelWords(scan.labels)}; first at line ${scan.firstLine}`,
    });
  } else if (scan.blank) {
    diagnose({ ruleId: 'ingest-note', line: 0, message: `the file is empty ('${format.id}': no record, only white space or nothing at all): its writer wrote no trace` });
  } else if (scan.archive) {
    diagnose({ ruleId: 'ingest-note', line: 0, message: `no tool call was read from this archive ('${format.id}'); its members were not searched for tool calls` });
  } else {
    const within = scan.cut ? ` in its first ${SCAN_BYTES / 1024 / 1024} MiB` : '';
    diagnose({ ruleId: 'ingest-note', line: 0, message: `the file holds no tool calls ('${format.id}': no tool call or result read, and no tool-shaped content${within})` });
  }
}
