import type { AuditConfig } from './audit-config.js';
import type { AuditInput, CatalogSummary, FileSummary, RunSummary } from '../../model/audit.js';
import type { Finding } from '../../model/finding.js';
import type { Run } from '../../model/run.js';
import type { TraceRecord } from '../../model/records.js';
import { capTimelines } from '../timeline/collect.js';
import type { RunTimeline } from '../../model/timeline.js';
import { activeRules, emitter, guarded, storeReleased } from './active-rules.js';
import { auditFile, type RunEntry } from './file-audit.js';
import { capAudit, DEFAULT_FINDING_CAPS } from '../findings/finding-caps.js';
import { FindingStore, type FindingHandoff, type FindingStoreOptions } from '../findings/finding-store.js';
import { addMetrics } from './metrics.js';
import { PerFileCap } from '../findings/per-file-cap.js';
import { addOmitted, internCatalog, noneOmitted, type OmittedTally } from '../held/run-shelf.js';

export type { AuditInput, CatalogSummary, FileSummary, RunSummary } from '../../model/audit.js';

/**
 * What an audit gives: its summaries, and its findings in their store (maybe partly
 * on disk), read once, in report order, when the report is written. The caller closes
 * `store` when done, or `materialize`s the result where it needs an array.
 */
export interface AuditResult {
  readonly files: FileSummary[];
  /** The runs held, in report order: every run, or (limits.max-runs) at least the first that many. */
  readonly runs: RunSummary[];
  /** The runs read and not held (run-shelf.ts), counted for the summary and `omittedRuns`. */
  readonly omittedRuns: OmittedTally;
  /** Every finding, in report order. */
  readonly store: FindingStore;
  readonly metrics: Record<string, unknown>;
  /** Each distinct catalog of the runs (held or not), once, in first-seen order. */
  readonly catalogs: CatalogSummary[];
  /** Each run's timeline, in run order, when `collectTimelines` was asked for (else empty). */
  readonly timelines: RunTimeline[];
}

/** An audit result with its findings read into an array (and its store closed): see `materialize`. */
export type MaterializedAudit = Omit<AuditResult, 'store'> & { readonly findings: Finding[] };

export interface AuditOptions {
  /** Force one format for every file (`--input-format`). */
  readonly inputFormat?: string;
  /** Called with each complete run after the rules ran (in this thread only: no worker pool). */
  readonly onRun?: (run: Run) => void;
  /** Called with each record as parsed, payload and all, before its run holds it (in this thread only, like onRun). */
  readonly onRecord?: (record: TraceRecord) => void;
  /** Collect each run's timeline (for the HTML report and Mermaid); works in workers too. */
  readonly collectTimelines?: boolean;
  /** Where and when findings spill to disk (tests use a tiny threshold). */
  readonly spill?: FindingStoreOptions;
}

/** What one worker (or the only thread) found in its share of the files, before cross-run rules finish. */
export interface PartialAudit {
  readonly files: Array<{
    readonly summary: FileSummary;
    readonly runs: readonly RunEntry[];
    /** The file's runs not held, and its distinct catalogs (absent: none omitted, catalogs on the runs). */
    readonly omitted?: OmittedTally;
    readonly catalogs?: readonly CatalogSummary[];
  }>;
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
 * The findings stay in the result's store: the caller closes it (or `materialize`s).
 */
export async function runAudit(inputs: readonly AuditInput[], config: AuditConfig, options: AuditOptions = {}): Promise<AuditResult> {
  return finishAudit([await auditPartial(inputs, config, options)], config, options.spill);
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
    // Timelines of runs the report does not list still rank in the HTML report: hold every run then.
    let keepRuns = options.collectTimelines === true ? Infinity : (config.maxRuns ?? Infinity);
    for (const input of sortInputs(inputs)) {
      const file = await auditFile(input, config, { ...options, keepRuns }, active, emit);
      keepRuns -= file.runs.length;
      files.push(file);
      storeReleased(config, store, cap.release(input.display), cap.cap);
    }
    // Findings a rule placed in another file than the one being read.
    storeReleased(config, store, cap.release(), cap.cap);
    return { files, findings: store.handoff(), metrics, states: ruleStates(active) };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** The cross-run state of each rule that has one (to merge before `finish`). */
export function ruleStates(active: ReturnType<typeof activeRules>): Array<[string, unknown]> {
  return active.filter(({ rule }) => rule.finish).map(({ rule, ctx }): [string, unknown] => [rule.meta.id, ctx.state]);
}

/**
 * Joins partial audits (from workers, in any order) into the result one thread
 * would have produced: files in name order, each file's runs in the order they
 * completed, cross-run rule states merged before the rules finish. The findings
 * stay in one store that owns the partials' chunk files (also when this fails:
 * they are removed then); the caller closes it, or `materialize`s the result.
 */
export function finishAudit(partials: readonly PartialAudit[], config: AuditConfig, spill?: FindingStoreOptions, extra: readonly FindingHandoff[] = []): AuditResult {
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
    storeReleased(config, store, cap.release(), cap.cap);
    const byName = partials.flatMap((p) => p.files).sort((a, b) => (a.summary.path < b.summary.path ? -1 : a.summary.path > b.summary.path ? 1 : 0));
    const runs = byName.flatMap((f) => f.runs);
    const omittedRuns = noneOmitted();
    for (const file of byName) if (file.omitted) addOmitted(omittedRuns, file.omitted);
    return {
      files: byName.map((f) => f.summary),
      runs: runs.map((run) => run.summary),
      omittedRuns,
      store: capAudit(store, caps.perAudit, spill),
      metrics,
      catalogs: distinctCatalogs(byName),
      timelines: capTimelines(runs.flatMap((run) => (run.timeline ? [run.timeline] : []))),
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/**
 * The one adapter from an audit to arrays: the findings read into an array, and the
 * store closed, for the renderers and tests that need one (the JSON report streams).
 */
export function materialize(stored: AuditResult): MaterializedAudit {
  try {
    return {
      files: stored.files,
      runs: stored.runs,
      omittedRuns: stored.omittedRuns,
      findings: stored.store.toArray(),
      metrics: stored.metrics,
      catalogs: stored.catalogs,
      timelines: stored.timelines,
    };
  } finally {
    stored.store.close();
  }
}

/** Each distinct catalog of the files' runs once (a file lists its own, or its runs carry them). */
function distinctCatalogs(files: PartialAudit['files']): CatalogSummary[] {
  const shelf = { keep: 0, runs: [], omitted: noneOmitted(), catalogs: new Map<string, CatalogSummary>() };
  for (const file of files) {
    for (const catalog of file.catalogs ?? file.runs.map((run) => run.catalog)) internCatalog(shelf, catalog);
  }
  return [...shelf.catalogs.values()];
}

function sortInputs(inputs: readonly AuditInput[]): AuditInput[] {
  return [...inputs].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}
