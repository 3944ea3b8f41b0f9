import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FindingStoreOptions } from '../audit/finding-store.js';
import { defaultJobs } from '../audit/pool.js';
import { auditPaths, auditPathsStored, type AuditRequest } from '../core.js';
import type { CollectSource } from '../io/collect-sources.js';
import { loadCliConfig } from './config-file.js';
import { FAIL_LEVELS } from '../config.js';
import { UsageError } from '../errors.js';
import { formatById, FORMATS } from '../ingest/registry.js';
import { OUTPUT_FORMATS, renderReport } from '../report/index.js';
import { renderJsonPieces, writeJsonFile, writePieces } from '../report/json.js';
import { consoleLogger, oneOf, parseFlags, type CliIO } from './io.js';

export const AUDIT_USAGE = `usage: agent-trace-audit audit <file|dir|glob>... [--format ${OUTPUT_FORMATS.join('|')}] [--config file]
       [--fail-on ${FAIL_LEVELS.join('|')}] [--input-format id] [--output file] [--jobs n] [--debug]`;

/** `audit`: exit 0 when no finding reaches the fail level, 1 when one does. `sources`: folders audited with the named files (`run` passes the receiver's spool). */
export async function auditCommand(args: string[], io: CliIO, sources: readonly CollectSource[] = []): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      format: { type: 'string', short: 'f' },
      config: { type: 'string', short: 'c' },
      'fail-on': { type: 'string' },
      'input-format': { type: 'string' },
      output: { type: 'string', short: 'o' },
      jobs: { type: 'string', short: 'j' },
      debug: { type: 'boolean' },
    },
    AUDIT_USAGE,
  );
  if (positionals.length === 0 && sources.length === 0) throw new UsageError(`audit needs at least one file, folder or glob\n${AUDIT_USAGE}`);
  const format = oneOf('format', values.format, OUTPUT_FORMATS) ?? 'text';
  const failOn = oneOf('fail-on', values['fail-on'], FAIL_LEVELS);
  const inputFormat = values['input-format'];
  if (inputFormat !== undefined && !formatById(inputFormat)) {
    throw new UsageError(`--input-format must be one of ${FORMATS.map((f) => f.id).join(', ')}, not ${JSON.stringify(inputFormat)}`);
  }
  const config = await loadCliConfig(io, values.config, failOn ? { failOn } : {});
  const logger = consoleLogger(io, values.debug === true);
  const jobs = values.jobs === undefined ? defaultJobs() : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 256) throw new UsageError(`--jobs must be a whole number from 1 to 256, not ${JSON.stringify(values.jobs)}`);
  const request: AuditRequest = {
    paths: positionals,
    root: io.cwd,
    config,
    strictPaths: true,
    jobs,
    workerEntry: io.workerEntry ?? null,
    ...(sources.length > 0 ? { sources } : {}),
    ...(inputFormat ? { inputFormat } : {}),
    // The html format draws each run: timelines are collected as runs complete (in the workers too).
    ...(format === 'html' ? { collectTimelines: true } : {}),
    ...spillOptions(io.env),
  };
  if (format === 'json') {
    // The JSON report is written in pieces as its findings are read from their store
    // (partly on disk for a large audit): memory does not grow with the findings.
    const outcome = await auditPathsStored(request, logger);
    try {
      if (values.output) await writeJsonFile(outcome.report, resolve(io.cwd, values.output));
      else if (io.stdoutStream) await writePieces(renderJsonPieces(outcome.report), io.stdoutStream, { end: false });
      else for (const piece of renderJsonPieces(outcome.report)) io.stdout(piece);
    } finally {
      outcome.result.store.close();
    }
    return outcome.failed ? 1 : 0;
  }
  const outcome = await auditPaths(request, logger);
  const rendered = renderReport(outcome.report, format, format === 'html' ? outcome.result.timelines : undefined);
  if (values.output) await writeFile(resolve(io.cwd, values.output), rendered);
  else io.stdout(rendered);
  return outcome.failed ? 1 : 0;
}

/** AGENT_TRACE_AUDIT_SPILL_THRESHOLD: findings held in memory before they spill to disk (tests and tuning). */
function spillOptions(env: NodeJS.ProcessEnv): { spill?: FindingStoreOptions } {
  const raw = env['AGENT_TRACE_AUDIT_SPILL_THRESHOLD'];
  if (raw === undefined || raw === '') return {};
  const threshold = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(threshold) || threshold < 1) {
    throw new UsageError(`AGENT_TRACE_AUDIT_SPILL_THRESHOLD must be a whole number of at least 1, not ${JSON.stringify(raw)}`);
  }
  return { spill: { threshold } };
}
