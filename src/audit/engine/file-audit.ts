import type { AuditConfig } from './audit-config.js';
import { detectableFormats } from '../../ingest/custom/index.js';
import { chooseFormat } from '../../ingest/detect.js';
import { notTraceLike } from '../../ingest/trace-like.js';
import type { Diagnostic, ParseInput, RecordSink, TraceFormat } from '../../ingest/types.js';
import type { ByteSource } from '../../io/byte-source.js';
import type { FileFacts } from '../../io/line-splitter.js';
import { openTraceFile } from '../../io/trace-file.js';
import type { TraceRecord } from '../../model/records.js';
import { resultCount, type Run } from '../../model/run.js';
import type { AuditInput, CatalogSummary, FileSummary, RunSummary } from '../../model/audit.js';
import type { RunTimeline } from '../../model/timeline.js';
import { checkRun, type ActiveRule, type Emit } from './active-rules.js';
import { catalogSnapshot, runCatalog } from '../catalog/run-catalog.js';
import type { RunMemos } from '../held/memo.js';
import { RecordStage } from './record-stage.js';
import { RunGrouper, type ClosedRun, type RunEvent } from '../held/run-grouper.js';
import { internCatalog, noneOmitted, shelveRun, trimRuns, type RunShelf } from '../held/run-shelf.js';
import { SkipTally } from './skip-tally.js';
import { emptyFileFinding, scanIfEmpty, toolCounts } from './empty-file.js';
import type { ToolShapeScan } from './tool-shape-scan.js';
import { collectTimeline } from '../timeline/collect.js';
import type { FileIdentity } from '../findings/run-identity.js';
import { fileIdentity, identitySink } from './identity-setup.js';

/** One complete run as the report lists it, with where it sorts among its file's runs. Plain data. */
export interface RunEntry {
  readonly summary: RunSummary;
  readonly catalog: CatalogSummary | null;
  readonly timeline: RunTimeline | null;
  readonly closedAt: number;
  readonly firstLine: number;
}

/** What reading one file's records into runs left: counters, skips and the runs, before the file's end checks. */
export interface FileWork extends RunShelf<RunEntry> {
  records: number;
  completed: number;
  lastDiagnosticLine: number;
  readonly skips: SkipTally;
  /** The parser said something about the file already (an ingest-note): no second note that it holds no calls. */
  noted?: boolean;
  /** Part of the file could not be read (a malformed-record or truncated-tail): what it holds is not known. */
  unread?: boolean;
  /** The parser's own `partial-read` findings (a mapping that missed): counted in files[].toolShaped. */
  misread?: number;
}

export interface ReadOptions {
  readonly collectTimelines?: boolean;
  readonly onRun?: (run: Run) => void;
  /** Called with each record before it is grouped (the router's check that a record's run is this thread's). */
  readonly onRecord?: (record: TraceRecord) => void;
  /** Hold at most this many of the file's runs, the first in report order, and count the rest (run-shelf.ts). */
  readonly keepRuns?: number;
  /** The identity of the file's findings (identity-setup.ts); by default from the name it is read under. */
  readonly identity?: FileIdentity;
}

/** One file: detect its format, read its runs (rules on each run), then the checks of the file as a whole. */
export async function auditFile(input: AuditInput, config: AuditConfig, options: ReadOptions & { readonly inputFormat?: string }, active: readonly ActiveRule[], rawEmit: Emit) {
  const identity = fileIdentity(config, input.display, input.within);
  const emit = identity.emitter(rawEmit);
  const opened = await openTraceFile(input.path, input.display, config.limits);
  const choice = chooseFormat(opened.sample, options.inputFormat, await detectableFormats(config.formats));
  if (!choice.format) {
    // A file no format claims that is not trace-like at all (a README, an image) is listed apart, with no finding.
    const notTrace = options.inputFormat ? null : notTraceLike(opened.sample);
    const base = { path: input.display, format: 'unknown', records: 0, runs: 0, skipped: [], toolCalls: 0, toolResults: 0 };
    if (notTrace !== null) return { summary: { ...base, notTrace }, runs: [] as RunEntry[] };
    const skips = new SkipTally();
    diagnoser(input.display, emit, skips)({ ruleId: 'unknown-format', line: 0, message: choice.message });
    noteFile(input, emit, skips);
    return { summary: base, runs: [] as RunEntry[] };
  }
  const work = newWork(options.keepRuns);
  if (choice.note) diagnoser(input.display, emit, work.skips)({ ruleId: 'ingest-note', line: 0, message: choice.note });
  await readRuns(opened.input, choice.format, config, { ...options, identity }, active, rawEmit, work, () => opened.facts.lines);
  const scan = await scanIfEmpty(input, config, work);
  const summary = finishFile(input.display, choice.format, opened.facts, opened.sources, work, emit, scan);
  noteFile(input, emit, work.skips);
  return { summary, runs: work.runs, omitted: work.omitted, catalogs: [...work.catalogs.values()] };
}

/** The notes its writer left on the file (input.notes), as findings at line 0. */
export function noteFile(input: AuditInput, emit: Emit, skips: SkipTally): void {
  for (const note of input.notes ?? []) diagnoser(input.display, emit, skips)({ ruleId: note.ruleId, line: 0, message: note.message });
}

/** Diagnostics become findings; malformed and cut records are counted as skipped too. */
export function diagnoser(file: string, emit: Emit, skips: SkipTally): (d: Diagnostic) => void {
  return (d) => {
    if (d.ruleId === 'malformed-record' || d.ruleId === 'truncated-tail') skips.add(d.ruleId, d.line);
    emit(d.ruleId, { loc: { file, line: d.line }, message: d.message, runId: d.runId ?? null, callId: d.callId ?? null, tool: d.tool ?? null });
  };
}

/**
 * Parses `input` into runs and runs every per-run rule on each complete run, into
 * `work`. A format with a run key groups on the line clock and sorts its runs by
 * `runOrder`, so the same lines read on several threads give the same runs.
 */
export async function readRuns(
  input: ParseInput,
  format: TraceFormat,
  config: AuditConfig,
  options: ReadOptions,
  active: readonly ActiveRule[],
  rawEmit: Emit,
  work: FileWork,
  fileLines: () => number,
): Promise<void> {
  const file = input.file;
  const identity = options.identity ?? fileIdentity(config, file);
  const emit = identity.emitter(rawEmit);
  if (format.runKey) identity.byRunId();
  const diagnose = diagnoser(file, emit, work.skips);
  const stage = new RecordStage(active, emit);
  const onRun = ({ run, closedAt, firstLine }: ClosedRun) => {
    identity.complete(run.runId, rawEmit);
    const memos = checkRun(run, active, stage.crashesOf(run.runId), emit, { file, line: run.records[0]?.loc.line ?? 0 });
    identity.forgetCalls(run.runId);
    shelveRun(work, runEntry(run, options.collectTimelines === true, closedAt, firstLine, memos, work), format.runKey ? entryOrder : null);
    options.onRun?.(run);
  };
  const { runIdleRecords, maxRunRecords } = config.limits;
  const idle = format.endsRuns === true ? 0 : runIdleRecords;
  const runs = new RunGrouper(file, format.id, { idle, maxRecords: maxRunRecords }, onRun, format.runKey ? 'lines' : 'records');
  const sink: RecordSink = {
    ...identitySink(identity, config),
    record(record: TraceRecord) {
      options.onRecord?.(record);
      const held = stage.hold(record);
      identity.arrive(held);
      const event = runs.add(held);
      stage.arrive(record, held, runs);
      if (event !== null) splitFinding(event, record, format, maxRunRecords, emit);
    },
    diagnostic(d) {
      work.lastDiagnosticLine = Math.max(work.lastDiagnosticLine, d.line);
      if (d.ruleId === 'ingest-note') work.noted = true;
      if (d.ruleId === 'malformed-record' || d.ruleId === 'truncated-tail') work.unread = true;
      if (d.ruleId === 'partial-read') work.misread = (work.misread ?? 0) + 1;
      diagnose(d);
    },
    skip(skip) {
      work.skips.add(skip.reason, skip.line, skip.value, skip.toolLike);
    },
    endRun(runId) {
      runs.close(runId);
    },
  };
  await format.parse(input, sink);
  runs.closeAll(fileLines());
  identity.end(rawEmit);
  work.records += runs.records;
  work.completed += runs.completed;
  trimRuns(work, format.runKey ? entryOrder : null);
}

/** The `run-split` finding of a run that resumed after it was closed as idle (at each resumption), or reached limits.max-run-records (once, at its first cut). */
function splitFinding(event: RunEvent, record: TraceRecord, format: TraceFormat, limit: number, emit: Emit): void {
  if ('cut' in event && event.cut > 1) return;
  emit('run-split', {
    loc: record.loc,
    runId: record.runId,
    message:
      'idle' in event
        ? `run resumed ${format.runKey ? `${event.idle} lines after its last record` : `after ${event.idle} records of other runs`}; it was audited in parts (raise limits.run-idle-records, or 0 to keep runs open)`
        : `run reached ${limit} records; it is audited in parts of at most ${limit}, each part's calls still awaiting a result carried into the next (raise limits.max-run-records, or 0 for no limit)`,
    key: 'idle' in event ? 'resumed' : 'cut',
  });
}

/** The checks of a file as a whole (BOM, final newline, byte-stream problems, partial read), and its summary. */
export function finishFile(display: string, format: TraceFormat, facts: FileFacts, sources: readonly ByteSource[], work: FileWork, emit: Emit, scan: ToolShapeScan | null = null): FileSummary {
  const diagnose = diagnoser(display, emit, work.skips);
  if (facts.bom) diagnose({ ruleId: 'byte-order-mark', line: 1, message: 'file starts with a UTF-8 byte order mark' });
  if (facts.missingFinalNewline && work.lastDiagnosticLine !== facts.lines) {
    diagnose({ ruleId: 'missing-final-newline', line: facts.lines, message: 'last record has no final newline' });
  }
  for (const source of sources) {
    if (!source.problem) continue;
    const ruleId = source.problem.code === 'gzip-truncated' ? 'truncated-tail' : 'malformed-record';
    diagnose({ ruleId, line: facts.lines, message: `${source.problem.message} (after line ${facts.lines})` });
  }
  const skips = work.skips;
  if (skips.toolLike > 0) {
    diagnose({
      ruleId: 'partial-read',
      line: skips.firstToolLikeLine,
      message: `${skips.toolLike} skipped record(s) look like tool calls or results ('${format.id}' does not read them; first at line ${skips.firstToolLikeLine})`,
    });
  }
  // A byte source that stopped (file past limits.max-file-bytes, inflation cut) or records that could not be read
  // (malformed-record, truncated-tail) already have their findings; "holds no tool calls" would claim something of what was never read.
  const unread = work.unread === true || sources.some((source) => source.problem) || skips.summary().some((skip) => skip.reason === 'malformed-record');
  if (scan && (scan.count > 0 || (!work.noted && !unread))) emptyFileFinding(format, scan, diagnose);
  const { calls, results } = toolCounts(work);
  const toolShaped = skips.toolLike + (scan?.count ?? 0) + (work.misread ?? 0);
  return {
    path: display,
    format: format.id,
    records: work.records,
    runs: work.completed,
    skipped: skips.summary(),
    toolCalls: calls,
    toolResults: results,
    ...(toolShaped > 0 ? { toolShaped } : {}),
  };
}

export function newWork(keep = Infinity): FileWork {
  return { records: 0, completed: 0, lastDiagnosticLine: 0, skips: new SkipTally(), keep, runs: [], omitted: noneOmitted(), catalogs: new Map() };
}

/** Runs closed by an earlier sweep first, then by first line (see runOrder in run-grouper.ts). */
export function entryOrder(a: RunEntry, b: RunEntry): number {
  if (a.closedAt !== b.closedAt) return a.closedAt < b.closedAt ? -1 : 1;
  if (a.firstLine !== b.firstLine) return a.firstLine - b.firstLine;
  const x = a.summary.runId ?? '';
  const y = b.summary.runId ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

function runEntry(run: Run, timeline: boolean, closedAt: number, firstLine: number, memos: RunMemos, work: FileWork): RunEntry {
  // The run's catalog identity is recomputed, never taken on trust: the JCS hash of
  // the sorted names, or the recorded hash when it matches the Python form (so runs
  // written by a Python harness keep the hash it printed). See CheckedCatalog.sha256.
  const checked = runCatalog(run);
  const catalog = internCatalog(work, checked ? { sha256: checked.sha256, tools: [...catalogSnapshot(checked)].map(([name, schemaSha256]) => ({ name, schemaSha256 })) } : null);
  const summary: RunSummary = {
    file: run.file,
    runId: run.runId,
    format: run.format,
    catalogSha256: catalog ? catalog.sha256 : null,
    toolCalls: run.calls.length,
    toolResults: resultCount(run),
  };
  return {
    summary,
    catalog,
    timeline: timeline ? collectTimeline(run, memos) : null,
    closedAt,
    firstLine,
  };
}
