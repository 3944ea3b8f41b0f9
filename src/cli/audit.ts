import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defaultJobs } from '../audit/pool.js';
import { auditPaths } from '../core.js';
import { loadCliConfig } from './config-file.js';
import { FAIL_LEVELS } from '../config.js';
import { UsageError } from '../errors.js';
import { formatById, FORMATS } from '../ingest/registry.js';
import { OUTPUT_FORMATS, renderReport } from '../report/index.js';
import { consoleLogger, oneOf, parseFlags, type CliIO } from './io.js';

export const AUDIT_USAGE = `usage: agent-trace-audit audit <file|dir|glob>... [--format ${OUTPUT_FORMATS.join('|')}] [--config file]
       [--fail-on ${FAIL_LEVELS.join('|')}] [--input-format id] [--output file] [--jobs n] [--debug]`;

/** `audit`: exit 0 when no finding reaches the fail level, 1 when one does. */
export async function auditCommand(args: string[], io: CliIO): Promise<number> {
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
  if (positionals.length === 0) throw new UsageError(`audit needs at least one file, folder or glob\n${AUDIT_USAGE}`);
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
  const outcome = await auditPaths(
    {
      paths: positionals,
      root: io.cwd,
      config,
      strictPaths: true,
      jobs,
      workerEntry: io.workerEntry ?? null,
      ...(inputFormat ? { inputFormat } : {}),
      // The html format draws each run: timelines are collected as runs complete (in the workers too).
      ...(format === 'html' ? { collectTimelines: true } : {}),
    },
    logger,
  );
  const rendered = renderReport(outcome.report, format, format === 'html' ? outcome.result.timelines : undefined);
  if (values.output) await writeFile(resolve(io.cwd, values.output), rendered);
  else io.stdout(rendered);
  return outcome.failed ? 1 : 0;
}
