import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isFailing } from '../core.js';
import { FAIL_LEVELS } from '../config.js';
import { InputError, UsageError } from '../errors.js';
import { mergeReports } from '../report/merge.js';
import { OUTPUT_FORMATS, renderReport } from '../report/index.js';
import { reportSchema, type Report } from '../report/schema.js';
import { describeIssues } from '../config.js';
import { oneOf, parseFlags, type CliIO } from './io.js';

export const MERGE_USAGE = `usage: agent-trace-audit merge <report.json>... [--format ${OUTPUT_FORMATS.join('|')}] [--fail-on ${FAIL_LEVELS.join('|')}] [--output file]`;

const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/** `merge`: shard reports in, one report out; the fail rule applied once to the merged findings. */
export async function mergeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { format: { type: 'string', short: 'f' }, 'fail-on': { type: 'string' }, output: { type: 'string', short: 'o' }, debug: { type: 'boolean' } },
    MERGE_USAGE,
  );
  if (positionals.length === 0) throw new UsageError(`merge needs at least one report\n${MERGE_USAGE}`);
  const format = oneOf('format', values.format, OUTPUT_FORMATS) ?? 'json';
  const failOn = oneOf('fail-on', values['fail-on'], FAIL_LEVELS) ?? 'error';
  const reports: Report[] = [];
  for (const path of positionals) reports.push(await readReport(resolve(io.cwd, path), path));
  const merged = mergeReports(reports);
  const rendered = renderReport(merged, format);
  if (values.output) await writeFile(resolve(io.cwd, values.output), rendered);
  else io.stdout(rendered);
  return isFailing(merged, failOn) ? 1 : 0;
}

/** Reads a JSON report as untrusted input: size-capped and schema-validated. */
export async function readReport(path: string, shown: string): Promise<Report> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_REPORT_BYTES) throw new InputError(shown, null, 'report-too-large', `${shown}: report is larger than ${MAX_REPORT_BYTES} bytes`);
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(shown, null, 'unreadable', `cannot read report ${JSON.stringify(shown)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new InputError(shown, null, 'invalid-report', `${shown}: not a JSON report`);
  }
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) throw new InputError(shown, null, 'invalid-report', `${shown}: not an agent-trace-audit report: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
