import { materialize, type AuditResult, type MaterializedAudit } from './audit/engine/engine.js';
import type { AuditInput } from './model/audit.js';
import type { FindingStore, FindingStoreOptions } from './audit/findings/finding-store.js';
import { runAuditPool } from './audit/engine/pool.js';
import type { AuditConfig } from './config/config.js';
import type { Skipped } from './io/collect.js';
import { collectAll, type CollectSource } from './io/collect-sources.js';
import type { Logger } from './logger.js';
import { buildReport } from './report/build.js';
import type { Report } from './report/schema.js';
import { SEVERITIES, SEVERITY_RANK, type Finding } from './model/finding.js';
import { sanitizeText } from './sanitize/text.js';

export interface AuditRequest {
  /** Files, folders and globs. */
  readonly paths: readonly string[];
  readonly root: string;
  readonly config: AuditConfig;
  /** CLI: a path that does not exist is an error (`no-such-path`). Action: a warning. A glob that matches nothing, or folders without a trace file, is nothing audited either way (the verdict). */
  readonly strictPaths: boolean;
  /** CLI: a path typed outside `root` is the user's choice (see CollectOptions.trustNamed). Action: everything stays in `root`. */
  readonly trustNamed?: boolean;
  readonly inputFormat?: string;
  /** Collect each run's timeline (HTML report, Mermaid) into `result.timelines`, in workers too. */
  readonly collectTimelines?: boolean;
  /** Worker threads for several files (1: audit in this thread). */
  readonly jobs?: number;
  /** The script workers start (the running bundle); null: no workers. */
  readonly workerEntry?: URL | null;
  /** Threads only from this much input in all (default POOL_MIN_BYTES: src/audit/engine/pool-plan.ts). */
  readonly poolMinBytes?: number;
  /** Folders read whole besides `paths` (downloaded artifacts), shown as `<prefix>/<path>`. */
  readonly sources?: readonly CollectSource[];
  /** When findings spill to disk (default: beyond 5,000 in memory). */
  readonly spill?: FindingStoreOptions;
}

/**
 * What `auditPaths` gives: the report, with its findings still in the audit's store
 * (maybe partly on disk), read when the report is written. The caller writes
 * `report` and then closes `result.store` (in a finally), or `materializeOutcome`s it.
 */
export interface AuditOutcome {
  readonly report: Report<FindingStore>;
  readonly result: AuditResult;
  readonly skipped: readonly Skipped[];
  /** The files that were read (absolute path and display name). */
  readonly inputs: readonly AuditInput[];
  /** True when a finding is at or above the fail level. */
  readonly failed: boolean;
}

/** An outcome (or a report and its result) with the findings read into arrays: see `materializeOutcome`. */
export type Materialized<T extends { readonly report: Report<FindingStore>; readonly result: AuditResult }> = Omit<T, 'report' | 'result'> & {
  readonly report: Report;
  readonly result: MaterializedAudit;
};

/** The one core both edges call: collect, audit, report, judge. */
export async function auditPaths(request: AuditRequest, logger: Logger): Promise<AuditOutcome> {
  const { inputs, skipped } = await collectAll(request.paths, request.sources ?? [], {
    root: request.root,
    exclude: request.config.exclude,
    strict: request.strictPaths,
    ...(request.trustNamed ? { trustNamed: true } : {}),
  });
  for (const skip of skipped) logger.warning(`skipped ${sanitizeText(skip.display)}: ${skip.reason}`);
  const result = await runAuditPool(inputs, request.config, {
    ...(request.inputFormat ? { inputFormat: request.inputFormat } : {}),
    ...(request.collectTimelines ? { collectTimelines: true } : {}),
    ...(request.spill ? { spill: request.spill } : {}),
    jobs: request.jobs ?? 1,
    entry: request.workerEntry ?? null,
    ...(request.poolMinBytes !== undefined ? { poolMinBytes: request.poolMinBytes } : {}),
  });
  try {
    const report = buildReport(result, request.config);
    return { report, result, skipped, inputs, failed: isFailing(report, request.config.failOn) };
  } catch (error) {
    result.store.close();
    throw error;
  }
}

/**
 * `materialize` for an outcome: the findings read once into an array (the store
 * closed), which the report shares; for the renderers that need arrays. The
 * report's counts and rules came from the store's counters, which are those of
 * its findings: the same report either way.
 */
export function materializeOutcome<T extends { readonly report: Report<FindingStore>; readonly result: AuditResult }>(outcome: T): Materialized<T> {
  const result = materialize(outcome.result);
  return { ...outcome, report: { ...outcome.report, findings: result.findings }, result };
}

/**
 * True when the report holds a finding at or above `failOn`: read from its summary's
 * counts per severity, which are those of its findings (built from the store's
 * counters, or recomputed by a merge), so a report whose findings are still in
 * their store is judged without reading them.
 */
export function isFailing(report: Pick<Report<Iterable<Finding>>, 'summary'>, failOn: AuditConfig['failOn']): boolean {
  if (failOn === 'never') return false;
  const floor = SEVERITY_RANK[failOn];
  return SEVERITIES.some((severity) => SEVERITY_RANK[severity] >= floor && report.summary.findings[severity] > 0);
}
