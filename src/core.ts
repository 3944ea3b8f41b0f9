import { materialize, type AuditResult, type StoredAuditResult } from './audit/engine.js';
import type { AuditInput } from './model/audit.js';
import type { FindingStoreOptions } from './audit/finding-store.js';
import { runAuditPoolStored } from './audit/pool.js';
import type { AuditConfig } from './config.js';
import { InputError } from './errors.js';
import type { Skipped } from './io/collect.js';
import { collectAll, type CollectSource } from './io/collect-sources.js';
import type { Logger } from './logger.js';
import { buildStreamedReport } from './report/build.js';
import type { Report, StreamedReport } from './report/schema.js';
import { SEVERITIES, SEVERITY_RANK, type Severity } from './model/finding.js';
import { sanitizeText } from './sanitize/text.js';

export interface AuditRequest {
  /** Files, folders and globs. */
  readonly paths: readonly string[];
  readonly root: string;
  readonly config: AuditConfig;
  /** CLI: a path that matches nothing is an error. Action: a warning. */
  readonly strictPaths: boolean;
  readonly inputFormat?: string;
  /** Collect each run's timeline (HTML report, Mermaid) into `result.timelines`, in workers too. */
  readonly collectTimelines?: boolean;
  /** Worker threads for several files (1: audit in this thread). */
  readonly jobs?: number;
  /** The script workers start (the running bundle); null: no workers. */
  readonly workerEntry?: URL | null;
  /** Folders read whole besides `paths` (downloaded artifacts), shown as `<prefix>/<path>`. */
  readonly sources?: readonly CollectSource[];
  /** When findings spill to disk (default: beyond 5,000 in memory). */
  readonly spill?: FindingStoreOptions;
}

export interface AuditOutcome {
  readonly report: Report;
  readonly result: AuditResult;
  readonly skipped: readonly Skipped[];
  /** The files that were read (absolute path and display name). */
  readonly inputs: readonly AuditInput[];
  /** True when a finding is at or above the fail level. */
  readonly failed: boolean;
}

/**
 * An audit whose findings are still in their store, to be streamed (the JSON
 * report): the caller writes `report` and then closes `result.store`.
 */
export interface StoredAuditOutcome extends Omit<AuditOutcome, 'report' | 'result'> {
  readonly report: StreamedReport;
  readonly result: StoredAuditResult;
}

/** The one core both edges call: collect, audit, report, judge. */
export async function auditPaths(request: AuditRequest, logger: Logger): Promise<AuditOutcome> {
  const stored = await auditPathsStored(request, logger);
  const result = materialize(stored.result);
  // The streamed report's counts and rules come from the store's counters, which are
  // those of its findings: the same report as buildReport(result), not built twice.
  const report: Report = { ...stored.report, findings: result.findings };
  return { report, result, skipped: stored.skipped, inputs: stored.inputs, failed: stored.failed };
}

/**
 * `auditPaths` with the findings left in their store (maybe partly on disk): the
 * report's findings are read when it is written. The caller closes `result.store`
 * (in a finally).
 */
export async function auditPathsStored(request: AuditRequest, logger: Logger): Promise<StoredAuditOutcome> {
  const { inputs, skipped } = await collectAll(request.paths, request.sources ?? [], {
    root: request.root,
    exclude: request.config.exclude,
    strict: request.strictPaths,
  });
  for (const skip of skipped) logger.warning(`skipped ${sanitizeText(skip.display)}: ${skip.reason}`);
  if (request.strictPaths && inputs.length === 0) {
    const why = skipped.length > 0 ? `${skipped.length} path(s) skipped or refused (see the warnings)` : 'the folders hold no *.jsonl, *.ndjson, *.json or *.eval file, nor a VCR cassette (*.yaml, *.yml)';
    throw new InputError('', null, 'nothing-to-audit', `no trace file to audit: ${why}`);
  }
  const result = await runAuditPoolStored(inputs, request.config, {
    ...(request.inputFormat ? { inputFormat: request.inputFormat } : {}),
    ...(request.collectTimelines ? { collectTimelines: true } : {}),
    ...(request.spill ? { spill: request.spill } : {}),
    jobs: request.jobs ?? 1,
    entry: request.workerEntry ?? null,
  });
  try {
    const report = buildStreamedReport(result, request.config);
    return { report, result, skipped, inputs, failed: isFailingCounts(result.store.counts, request.config.failOn) };
  } catch (error) {
    result.store.close();
    throw error;
  }
}

export function isFailing(report: Report, failOn: AuditConfig['failOn']): boolean {
  if (failOn === 'never') return false;
  const floor = SEVERITY_RANK[failOn];
  return report.findings.some((finding) => SEVERITY_RANK[finding.severity] >= floor);
}

/** `isFailing` from the counts per severity (what a finding store keeps). */
export function isFailingCounts(counts: Readonly<Record<Severity, number>>, failOn: AuditConfig['failOn']): boolean {
  if (failOn === 'never') return false;
  const floor = SEVERITY_RANK[failOn];
  return SEVERITIES.some((severity) => SEVERITY_RANK[severity] >= floor && counts[severity] > 0);
}
