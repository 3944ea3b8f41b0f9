import type { AuditConfig } from './audit-config.js';
import { chooseFormat } from '../ingest/detect.js';
import type { Diagnostic, RecordSink } from '../ingest/types.js';
import { openTraceFile } from '../io/trace-file.js';
import type { Finding } from '../model/finding.js';
import type { TraceRecord } from '../model/records.js';
import type { AuditInput, CatalogSummary, FileSummary, RunSummary } from '../model/audit.js';
import type { Run } from '../model/run.js';
import { capTimelines, collectTimeline } from './timeline/collect.js';
import type { RunTimeline } from '../model/timeline.js';
import { RunGrouper } from './run-grouper.js';
import { SkipTally } from './skip-tally.js';
import { catalogSnapshot, runCatalog } from './catalog/run-catalog.js';
import { capAudit, DEFAULT_FINDING_CAPS, PerFileCap } from './finding-caps.js';
import { FindingStore, type FindingHandoff, type FindingStoreOptions } from './finding-store.js';
import { makeFinding } from './findings.js';
import { RunMemos } from './memo.js';
import { addMetrics } from './metrics.js';
import { RULES } from './rules/index.js';
import type { FindingDraft, ReportFn, Rule, RuleContext } from './rule-types.js';

export type { AuditInput, CatalogSummary, FileSummary, RunSummary } from '../model/audit.js';

export interface AuditResult {
  readonly files: FileSummary[];
  readonly runs: RunSummary[];
  /** Every finding, in report order (materialized from the store). */
  readonly findings: Finding[];
  readonly metrics: Record<string, unknown>;
  /** The catalog of each run that has one, in run order (duplicates included). */
  readonly catalogs: CatalogSummary[];
  /** Each run's timeline, in run order, when `collectTimelines` was asked for (else empty). */
  readonly timelines: RunTimeline[];
}

export interface AuditOptions {
  /** Force one format for every file (`--input-format`). */
  readonly inputFormat?: string;
  /** Called with each complete run after the rules ran (in this thread only: no worker pool). */
  readonly onRun?: (run: Run) => void;
  /** Collect each run's timeline (for the HTML report and Mermaid); works in workers too. */
  readonly collectTimelines?: boolean;
  /** Where and when findings spill to disk (tests use a tiny threshold). */
  readonly spill?: FindingStoreOptions;
}

/**
 * An audit whose findings are still in their store (maybe partly on disk): for the
 * callers that stream them (the JSON report). The caller closes `store` when done.
 */
export type StoredAuditResult = Omit<AuditResult, 'findings'> & { readonly store: FindingStore };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRule = Rule<any, any>;
interface ActiveRule {
  readonly rule: AnyRule;
  readonly severity: 'error' | 'warning' | 'note';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly ctx: RuleContext<any, any>;
}

/** What one worker (or the only thread) found in its share of the files, before cross-run rules finish. */
export interface PartialAudit {
  readonly files: Array<{ readonly summary: FileSummary; readonly runs: RunSummary[]; readonly catalogs: CatalogSummary[]; readonly timelines: RunTimeline[] }>;
  /** The partial store's findings: in memory, or chunk files whose folder passes to the receiver. */
  readonly findings: FindingHandoff;
  readonly metrics: Record<string, unknown>;
  /** Cross-run state of each rule that has one, to merge before `finish`. */
  readonly states: Array<[string, unknown]>;
}

/**
 * Audits files one after another: detect the format, stream records into runs,
 * run every enabled rule on each complete run, then the cross-run rules.
 * A crashing rule becomes a `rule-crash` finding; a bad record a `malformed-record`.
 */
export async function runAudit(inputs: readonly AuditInput[], config: AuditConfig, options: AuditOptions = {}): Promise<AuditResult> {
  return materialize(await runAuditStored(inputs, config, options));
}

/** `runAudit` with the findings left in their store (the caller closes it). */
export async function runAuditStored(inputs: readonly AuditInput[], config: AuditConfig, options: AuditOptions = {}): Promise<StoredAuditResult> {
  return finishAuditStored([await auditPartial(inputs, config, options)], config, options.spill);
}

/** The per-file, per-run part of an audit (what a worker does). */
export async function auditPartial(inputs: readonly AuditInput[], config: AuditConfig, options: AuditOptions = {}): Promise<PartialAudit> {
  const store = new FindingStore(options.spill);
  try {
    const metrics = Object.create(null) as Record<string, unknown>;
    const active = activeRules(config, metrics);
    const cap = new PerFileCap((config.findingCaps ?? DEFAULT_FINDING_CAPS).perRulePerFile);
    const emit = emitter(config, store, cap);
    const files: PartialAudit['files'] = [];
    for (const input of sortInputs(inputs)) {
      const runs: RunSummary[] = [];
      const catalogs: CatalogSummary[] = [];
      const timelines: RunTimeline[] = [];
      const summary = await auditFile(input, config, options, active, emit, (run, memos) => {
        runs.push(summarizeRun(run));
        if (options.collectTimelines) timelines.push(collectTimeline(run, memos));
        const catalog = runCatalog(run);
        if (catalog) catalogs.push({ sha256: catalog.sha256, tools: [...catalogSnapshot(catalog)].map(([name, schemaSha256]) => ({ name, schemaSha256 })) });
        options.onRun?.(run);
      });
      for (const [ruleId, draft] of cap.release(input.display)) emitter(config, store)(ruleId, draft);
      files.push({ summary, runs, catalogs, timelines });
    }
    const states = active.filter(({ rule }) => rule.finish).map(({ rule, ctx }): [string, unknown] => [rule.meta.id, ctx.state]);
    return { files, findings: store.handoff(), metrics, states };
  } catch (error) {
    store.close();
    throw error;
  }
}

/**
 * Joins partial audits (from workers, in any order) into the result one thread
 * would have produced: files in name order, each file's runs in the order they
 * completed, cross-run rule states merged before the rules finish. The findings
 * stay in one store that owns the partials' chunk files (also when this fails:
 * they are removed then); the caller closes it, or `materialize`s the result.
 */
export function finishAuditStored(partials: readonly PartialAudit[], config: AuditConfig, spill?: FindingStoreOptions, extra: readonly FindingHandoff[] = []): StoredAuditResult {
  const store = new FindingStore(spill);
  try {
    store.adopt([...extra, ...partials.map((p) => p.findings)]);
    const metrics = Object.create(null) as Record<string, unknown>;
    for (const partial of partials) addMetrics(metrics, partial.metrics);
    const active = activeRules(config, metrics);
    const caps = config.findingCaps ?? DEFAULT_FINDING_CAPS;
    const cap = new PerFileCap(caps.perRulePerFile);
    const emit = emitter(config, store, cap);
    for (const { rule, ctx } of active) {
      if (!rule.finish) continue;
      const states = partials.map((p) => p.states.find(([id]) => id === rule.meta.id)?.[1]);
      const state = states.length === 1 ? states[0] : states.reduce((a, b) => rule.merge!(a, b));
      guarded(rule, emit, { file: '(audit)', line: 0 }, null, (report) => rule.finish!({ ...ctx, state }, report));
    }
    for (const [ruleId, draft] of cap.release()) emitter(config, store)(ruleId, draft);
    const byName = partials.flatMap((p) => p.files).sort((a, b) => (a.summary.path < b.summary.path ? -1 : a.summary.path > b.summary.path ? 1 : 0));
    return {
      files: byName.map((f) => f.summary),
      runs: byName.flatMap((f) => f.runs),
      store: capAudit(store, caps.perAudit, spill),
      metrics,
      catalogs: byName.flatMap((f) => f.catalogs),
      timelines: capTimelines(byName.flatMap((f) => f.timelines)),
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** The findings read into an array, and the store closed: the AuditResult every array consumer takes. */
export function materialize(stored: StoredAuditResult): AuditResult {
  try {
    return {
      files: stored.files,
      runs: stored.runs,
      findings: stored.store.toArray(),
      metrics: stored.metrics,
      catalogs: stored.catalogs,
      timelines: stored.timelines,
    };
  } finally {
    stored.store.close();
  }
}

function sortInputs(inputs: readonly AuditInput[]): AuditInput[] {
  return [...inputs].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

/** Adds a rule's finding to the store (when the rule is on and `cap` lets it be listed). */
function emitter(config: AuditConfig, store: FindingStore, cap?: PerFileCap) {
  return (ruleId: string, draft: FindingDraft) => {
    const setting = config.rules.get(ruleId);
    if (!setting || setting.severity === 'off') return;
    if (cap && !cap.admit(ruleId, draft)) return;
    store.add(makeFinding(ruleId, setting.severity, draft));
  };
}

async function auditFile(
  input: AuditInput,
  config: AuditConfig,
  options: AuditOptions,
  active: readonly ActiveRule[],
  emit: (ruleId: string, draft: FindingDraft) => void,
  onRun: (run: Run, memos: RunMemos) => void,
): Promise<FileSummary> {
  const opened = await openTraceFile(input.path, input.display, config.limits);
  const choice = chooseFormat(opened.sample, options.inputFormat);
  const skips = new SkipTally();
  const diagnose = (d: Diagnostic) => {
    if (d.ruleId === 'malformed-record' || d.ruleId === 'truncated-tail') skips.add(d.ruleId, d.line);
    emit(d.ruleId, { loc: { file: input.display, line: d.line }, message: d.message, runId: d.runId ?? null, callId: d.callId ?? null, tool: d.tool ?? null });
  };
  if (!choice.format) {
    diagnose({ ruleId: 'unknown-format', line: 0, message: choice.message });
    return { path: input.display, format: 'unknown', records: 0, runs: 0, skipped: [] };
  }
  const format = choice.format;
  if (choice.note) diagnose({ ruleId: 'ingest-note', line: 0, message: choice.note });

  const runs = new RunGrouper(input.display, format.id, config.limits.runIdleRecords, (run) => {
    const memos = new RunMemos(); // the run's memos, released with it
    for (const { rule, ctx } of active) {
      if (!rule.check) continue;
      guarded(rule, emit, { file: input.display, line: run.records[0]?.loc.line ?? 0 }, run.runId, (report) => rule.check!(run, { ...ctx, memos }, report));
    }
    onRun(run, memos);
  });
  let lastDiagnosticLine = 0;
  const sink: RecordSink = {
    record(record: TraceRecord) {
      const resumed = runs.add(record);
      if (resumed) {
        emit('run-split', {
          loc: record.loc,
          runId: record.runId,
          message: `run resumed after ${resumed.idle} records of other runs; it was audited in parts (raise limits.run-idle-records, or 0 to keep runs open)`,
          key: `${record.runId ?? ''}@${record.loc.line}`,
        });
      }
    },
    diagnostic(d) {
      lastDiagnosticLine = Math.max(lastDiagnosticLine, d.line);
      diagnose(d);
    },
    skip(skip) {
      skips.add(skip.reason, skip.line, skip.value, skip.toolLike);
    },
    endRun(runId) {
      runs.close(runId);
    },
  };
  await format.parse(opened.input, sink);

  const facts = opened.facts;
  if (facts.bom) diagnose({ ruleId: 'byte-order-mark', line: 1, message: 'file starts with a UTF-8 byte order mark' });
  if (facts.missingFinalNewline && lastDiagnosticLine !== facts.lines) {
    diagnose({ ruleId: 'missing-final-newline', line: facts.lines, message: 'last record has no final newline' });
  }
  for (const source of opened.sources) {
    if (!source.problem) continue;
    const ruleId = source.problem.code === 'gzip-truncated' ? 'truncated-tail' : 'malformed-record';
    diagnose({ ruleId, line: facts.lines, message: `${source.problem.message} (after line ${facts.lines})` });
  }
  if (skips.toolLike > 0) {
    diagnose({
      ruleId: 'partial-read',
      line: skips.firstToolLikeLine,
      message: `${skips.toolLike} skipped record(s) look like tool calls or results ('${format.id}' does not read them; first at line ${skips.firstToolLikeLine})`,
    });
  }
  runs.closeAll();
  return { path: input.display, format: format.id, records: runs.records, runs: runs.completed, skipped: skips.summary() };
}

function activeRules(config: AuditConfig, metrics: Record<string, unknown>): ActiveRule[] {
  const out: ActiveRule[] = [];
  for (const rule of RULES) {
    const setting = config.rules.get(rule.meta.id);
    if (!setting || setting.severity === 'off' || (!rule.check && !rule.finish)) continue;
    const state = rule.init ? rule.init(setting.options) : undefined;
    const ctx = {
      options: setting.options,
      state,
      memos: new RunMemos(),
      metric: (name: string, value: number | Record<string, number>) => addMetrics(metrics, { [`${rule.meta.id}.${name}`]: value }),
    };
    out.push({ rule, severity: setting.severity, ctx });
  }
  return out;
}

function guarded(
  rule: AnyRule,
  emit: (ruleId: string, draft: FindingDraft) => void,
  where: { file: string; line: number },
  runId: string | null,
  body: (report: ReportFn) => void,
): void {
  const report: ReportFn = (draft) => emit(rule.meta.id, draft);
  try {
    body(report);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : 'unknown error';
    if (process.env['AGENT_TRACE_AUDIT_DEBUG'] && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    emit('rule-crash', { loc: where, runId, message: `rule '${rule.meta.id}' crashed on this run (${reason}); its findings for the run are missing`, key: rule.meta.id });
  }
}

function summarizeRun(run: Run): RunSummary {
  // The run's catalog identity is recomputed, never taken on trust: the JCS hash of
  // the sorted names, or the recorded hash when it matches the Python form (so runs
  // written by a Python harness keep the hash it printed). See CheckedCatalog.sha256.
  const catalog = runCatalog(run);
  return {
    file: run.file,
    runId: run.runId,
    format: run.format,
    catalogSha256: catalog ? catalog.sha256 : null,
    toolCalls: run.calls.length,
    toolResults: run.results.length,
  };
}
