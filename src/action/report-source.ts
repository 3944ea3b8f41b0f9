import type { AuditInput } from '../model/audit.js';
import type { Logger } from '../logger.js';
import type { Report } from '../report/schema.js';
import type { RunTimeline } from '../model/timeline.js';
import type { RunContext } from '../github/context.js';
import type { ActionInputs } from '../github/inputs.js';
import { defaultJobs } from '../audit/engine/pool.js';
import { DEFAULT_CONFIG_FILE, loadConfigFile, resolveConfig, type AuditConfig } from '../config/config.js';
import { auditPaths, materializeOutcome } from '../core.js';
import { formatsFor } from '../ingest/custom/index.js';
import { ConfigurationError } from '../errors.js';
import { mergeReports } from '../report/merge.js';
import { VERSION } from '../version.js';
import { withArtifacts } from './artifacts-in-report.js';
import { artifactSources, collectArtifacts } from '../github/artifacts/collect-artifacts.js';
import { downloadReports } from '../github/artifacts/remote-reports.js';
import { artifactNameFor } from '../github/artifacts/artifact-name.js';
import { receivedSources } from './receiver-step.js';
import { lstatSync } from 'node:fs';
import { realFolder } from '../io/confine.js';
import { resolve } from 'node:path';

export interface Sourced {
  readonly report: Report;
  readonly config: AuditConfig;
  /** Trace files read in this job (audit mode only): these are sealed and annotated. */
  readonly inputs: readonly AuditInput[];
  /** Set when there was nothing to audit (no trace files, or no shard reports). */
  readonly empty: boolean;
  /** Run timelines for report.html and the Mermaid blocks (audit mode; merged reports carry none). */
  readonly timelines?: readonly RunTimeline[];
}

export async function loadActionConfig(inputs: ActionInputs, workspace: string): Promise<AuditConfig> {
  // The default (agent-trace-audit.yml) is read when it exists; any other path must exist.
  const named = inputs.config === '' ? DEFAULT_CONFIG_FILE : inputs.config;
  const configPath = named !== DEFAULT_CONFIG_FILE || lstatSync(resolve(workspace, DEFAULT_CONFIG_FILE), { throwIfNoEntry: false }) ? named : undefined;
  // The workspace rule (src/io/confine.ts): a pull request's symlink cannot make it read outside the workspace or inside .git.
  const file = configPath ? await loadConfigFile(resolve(workspace, configPath), configPath, { root: realFolder(workspace) }) : {};
  return resolveConfig(file, { failOn: inputs.failOn, ...(inputs.gate ? { gate: inputs.gate } : {}), ...(inputs.failOnUnread === undefined ? {} : { failOnUnread: inputs.failOnUnread }) }, configPath ?? 'inputs');
}

/**
 * The report this job works from. audit: the traces in the workspace.
 * merge: every shard report uploaded earlier in this run. publish: the
 * report(s) of the triggering workflow_run, treated as untrusted.
 */
/** `workers.entry`: the running bundle, so several trace files are audited on worker threads (from `poolMinBytes` of input). */
export async function sourceReport(inputs: ActionInputs, ctx: RunContext, logger: Logger, workers: { entry: URL | null; poolMinBytes?: number } = { entry: null }): Promise<Sourced> {
  const config = await loadActionConfig(inputs, ctx.workspace);
  if (inputs.mode === 'audit') {
    const read = await collectArtifacts(inputs, inputs.token, ctx, logger);
    const sources = [...artifactSources(read), ...(await receivedSources(logger))];
    const outcome = materializeOutcome(
      await auditPaths({ paths: inputs.traces, root: ctx.workspace, config, strictPaths: false, jobs: defaultJobs(), workerEntry: workers.entry, ...(workers.poolMinBytes !== undefined ? { poolMinBytes: workers.poolMinBytes } : {}), sources, collectTimelines: true, ...inputFormatOf(inputs, config) }, logger),
    );
    const byFormat = new Map<string, number>();
    for (const file of outcome.report.files) byFormat.set(file.format, (byFormat.get(file.format) ?? 0) + 1);
    const formats = [...byFormat.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([format, n]) => `${n} ${format}`);
    logger.info(`found ${outcome.report.files.length} trace file(s)${formats.length > 0 ? `: ${formats.join(', ')}` : ''}`);
    const report = read.length > 0 ? withArtifacts(outcome.report, read, outcome.inputs) : outcome.report;
    return { report, config, inputs: outcome.inputs, empty: outcome.report.files.length === 0, timelines: outcome.result.timelines };
  }
  if (inputs.artifacts.length > 0) logger.warning(`artifacts is read in mode: audit only; mode: ${inputs.mode} reads the report artifacts and ignores it`);
  if (!inputs.token) throw new ConfigurationError(`mode: ${inputs.mode} needs github-token to read artifacts`, 'input');
  let runId = ctx.runId;
  if (inputs.mode === 'publish') {
    if (!ctx.workflowRun) throw new ConfigurationError('mode: publish runs on a workflow_run event (the event has no workflow_run)', 'input');
    runId = ctx.workflowRun.id;
  }
  const run = { token: inputs.token, owner: ctx.owner, repo: ctx.repo, runId };
  const reports = await downloadReports(run, artifactNameFor(inputs.artifactName, '', inputs.name), ctx.tempDir, logger);
  logger.info(`read ${reports.length} report(s) from run ${runId}`);
  if (reports.length === 0) {
    return { report: mergeReports([emptyReport()]), config, inputs: [], empty: true };
  }
  return { report: mergeReports(reports, config.maxRuns), config, inputs: [], empty: false };
}

function emptyReport(): Report {
  return {
    schemaVersion: 1,
    tool: { name: 'agent-trace-audit', version: VERSION },
    summary: { files: 0, runs: 0, toolCalls: 0, toolResults: 0, findings: { error: 0, warning: 0, note: 0 } },
    files: [],
    runs: [],
    rules: [],
    metrics: {},
    findings: [],
  };
}

/** The input-format input, checked against the built-in formats and the configuration's own: an unknown name is an input error. */
function inputFormatOf(inputs: ActionInputs, config: AuditConfig): { inputFormat?: string } {
  if (inputs.inputFormat === '') return {};
  const formats = formatsFor(config.formats);
  if (!formats.some((format) => format.id === inputs.inputFormat)) {
    throw new ConfigurationError(`input input-format must be one of ${formats.map((format) => format.id).join(', ')}, not ${JSON.stringify(inputs.inputFormat)}`, 'input');
  }
  return { inputFormat: inputs.inputFormat };
}
