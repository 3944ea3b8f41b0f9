import { nearest } from '../../nearest.js';
import type { FindingStoreOptions } from '../../audit/findings/finding-store.js';
import { defaultJobs } from '../../audit/engine/pool.js';
import { poolMinBytesFromEnv } from '../../audit/engine/pool-plan.js';
import { auditPaths, materializeOutcome, type AuditRequest } from '../../core.js';
import { judge, judgeCounts, type JudgeOptions } from '../../report/verdict/judge.js';
import { GATES } from '../../report/verdict/verdict.js';
import { readBaselines } from '../baseline-reports.js';
import type { CollectSource } from '../../io/collect-sources.js';
import { UsageError } from '../../errors.js';
import { formatsFor } from '../../ingest/custom/index.js';
import { FORMATS } from '../../ingest/registry.js';
import { OUTPUT_FORMATS, renderReport } from '../../report/index.js';
import { renderJsonPieces, writeJsonFile, writePieces } from '../../report/render/json.js';
import { oneOf, type CommandSpec, type ParsedArgs } from '../command.js';
import { loadCliConfig } from '../config-file.js';
import { CONFIG_FLAG, FAIL_ON_FLAG, FAIL_ON_UNREAD_FLAG, failOnOverride, failOnUnreadOverride, formatFlag, outputFlag } from '../flags.js';
import { consoleLogger, jsonPieces, writeJson, type CliIO } from '../io.js';
import { outputFile, verdictOut, writingTo } from '../output.js';

export const AUDIT: CommandSpec = {
  name: 'audit',
  summary: 'audit trace files, folders or globs and report every finding with its file and line',
  args: '<file|dir|glob>...',
  details: [
    'Folders are searched for *.jsonl, *.ndjson, *.json, *.eval (and .gz) files, and for',
    '*.yaml/*.yml files that are VCR cassettes. The format of each file is detected.',
    'The first line is the verdict: nothing audited (no tool call read), files not read, partly read, passed or failed',
    '(on stderr when the report goes to a file with -o).',
    'With --baseline (the base branch\'s JSON report), --gate new (the default then) fails only on new findings.',
    'Give --baseline more than once, or a folder of reports (the last runs on the base branch): a finding some',
    'but not all of them had is flaky, counted apart and never failing the gate; fixed means every one had it.',
    'Findings of rules a baseline report did not run at this rule version are not compared.',
    'Exit codes: 0 no finding at or above --fail-on (new ones with --gate new), 1 findings at or above it,',
    'or nothing audited (no tool call read; --allow-empty: 0), or with --fail-on-unread a trace file not read,',
    '2 usage or input error. Files that are not trace-like (a README, an image) are listed apart, never counted.',
  ],
  flags: [
    formatFlag(OUTPUT_FORMATS, 'text'),
    outputFlag('the report'),
    FAIL_ON_FLAG,
    FAIL_ON_UNREAD_FLAG,
    { name: 'gate', type: 'string', value: 'new|all', default: 'new with --baseline, else all; or gate of the configuration file', description: 'new: fail only on findings not in the baseline report; all: on every finding' },
    { name: 'baseline', type: 'string', multiple: true, value: 'report.json|dir', default: 'none', description: 'the base branch\'s JSON report(s), or a folder of them; more than once for several runs: new, flaky and fixed findings are counted against them' },
    { name: 'allow-empty', type: 'boolean', default: 'off', description: 'exit 0 when no tool call was read (the verdict still says nothing was audited)' },
    CONFIG_FLAG,
    { name: 'input-format', type: 'string', value: 'id', default: 'detected per file', description: `read every file as this format: ${FORMATS.map((f) => f.id).join(', ')}, or a name from the configuration file's formats: section` },
    { name: 'jobs', short: 'j', type: 'string', value: 'n', default: 'the available cores', description: 'files audited in parallel: this thread and n - 1 worker threads, from 48 MiB of input (less is audited on this thread)' },
  ],
  examples: ['agent-trace-audit audit traces/ --fail-on warning', 'agent-trace-audit audit "runs/**/*.jsonl" --format sarif -o audit.sarif'],
  run: auditCommand,
};

/** `audit`: exit 0 when no finding reaches the fail level, 1 when one does. `sources`: folders audited with the named files (`run` passes the receiver's spool). */
export async function auditCommand(args: ParsedArgs, io: CliIO, sources: readonly CollectSource[] = []): Promise<number> {
  if (args.positionals.length === 0 && sources.length === 0) throw new UsageError('audit needs at least one file, folder or glob');
  const format = oneOf('format', args.string('format'), OUTPUT_FORMATS) ?? 'text';
  const inputFormat = args.string('input-format');
  const gate = oneOf('gate', args.string('gate'), GATES);
  const config = await loadCliConfig(io, args.string('config'), { ...failOnOverride(args), ...failOnUnreadOverride(args), ...(gate ? { gate } : {}) });
  if (inputFormat !== undefined) {
    const ids = formatsFor(config.formats).map((f) => f.id);
    if (!ids.includes(inputFormat)) {
      const guess = nearest(inputFormat, ids);
      throw new UsageError(`--input-format must be one of ${ids.join(', ')}, not ${JSON.stringify(inputFormat)}${guess === null ? '' : ` (did you mean ${guess}?)`}`);
    }
  }
  const bases = await readBaselines(args.strings('baseline'), io.cwd);
  const baseline = bases.length > 0 ? bases : null;
  const logger = consoleLogger(io, args.boolean('debug'));
  const jobsFlag = args.string('jobs');
  const jobs = jobsFlag === undefined ? defaultJobs() : Number(jobsFlag);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 256) throw new UsageError(`--jobs must be a whole number from 1 to 256, not ${JSON.stringify(jobsFlag)}`);
  const outputFlagValue = args.string('output');
  const output = outputFlagValue === undefined ? null : await outputFile(io, outputFlagValue);
  const request: AuditRequest = {
    paths: args.positionals,
    root: io.cwd,
    config,
    strictPaths: true,
    trustNamed: true,
    jobs,
    workerEntry: io.workerEntry ?? null,
    ...(sources.length > 0 ? { sources } : {}),
    ...(inputFormat ? { inputFormat } : {}),
    // The html format draws each run: timelines are collected as runs complete (in the workers too).
    ...(format === 'html' ? { collectTimelines: true } : {}),
    ...tuning(io.env),
  };
  const outcome = await auditPaths(request, logger);
  const judging: JudgeOptions = { config, baseline, noBaseline: 'no --baseline given', defaultGate: baseline ? 'new' : 'all', allowEmpty: args.boolean('allow-empty') };
  // Suppressions and a baseline need the findings; else the JSON report streams from the store.
  if (format === 'json' && !config.suppress && !baseline) {
    const judged = judgeCounts(outcome.report, judging);
    // The JSON report is written in pieces as its findings are read from their store
    // (partly on disk for a large audit): memory does not grow with the findings.
    try {
      // The judged report: the findings' store, with the verdict before them.
      if (output) await writingTo(output, (path) => writeJsonFile(judged.report, path));
      else if (io.stdoutStream) await writePieces(jsonPieces(io, renderJsonPieces(judged.report)), io.stdoutStream, { end: false });
      else for (const piece of renderJsonPieces(judged.report)) writeJson(io, piece);
    } finally {
      outcome.result.store.close();
    }
    return verdictOut(io, judged, output !== null);
  }
  const materialized = materializeOutcome(outcome);
  const judged = judge(materialized.report, judging);
  const rendered = renderReport(judged.report, format, format === 'html' ? materialized.result.timelines : [], judged);
  if (output) await output.write(rendered);
  else if (format === 'json' || format === 'sarif') writeJson(io, rendered);
  else io.stdout(rendered);
  return verdictOut(io, judged, output !== null);
}

/**
 * The environment's tuning (tests and tuning): AGENT_TRACE_AUDIT_SPILL_THRESHOLD, findings held
 * in memory before they spill to disk; AGENT_TRACE_AUDIT_POOL_MIN_BYTES, input from which threads start.
 */
function tuning(env: NodeJS.ProcessEnv): { spill?: FindingStoreOptions; poolMinBytes?: number } {
  const raw = env['AGENT_TRACE_AUDIT_SPILL_THRESHOLD'];
  const threshold = Number(raw);
  if (raw !== undefined && raw !== '' && (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(threshold) || threshold < 1)) {
    throw new UsageError(`AGENT_TRACE_AUDIT_SPILL_THRESHOLD must be a whole number of at least 1, not ${JSON.stringify(raw)}`);
  }
  let poolMinBytes: number | undefined;
  try {
    poolMinBytes = poolMinBytesFromEnv(env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return { ...(raw !== undefined && raw !== '' ? { spill: { threshold } } : {}), ...(poolMinBytes !== undefined ? { poolMinBytes } : {}) };
}
