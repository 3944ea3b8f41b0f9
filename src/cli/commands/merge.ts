import { namedConfinement, readInputFile, realFolder, type Confinement } from '../../io/confine.js';
import { resolve } from 'node:path';
import { judge } from '../../report/verdict/judge.js';
import { describeIssues } from '../../config/config.js';
import { InputError, UsageError } from '../../errors.js';
import { sanitizeStoredReport } from '../../github/artifacts/stored-report.js';
import { mergeReports } from '../../report/merge.js';
import { OUTPUT_FORMATS, renderReport } from '../../report/index.js';
import { reportSchema, type Report } from '../../report/schema.js';
import { oneOf, type CommandSpec, type ParsedArgs } from '../command.js';
import { CONFIG_FLAG, FAIL_ON_FLAG, FAIL_ON_UNREAD_FLAG, failOnOverride, failOnUnreadOverride, formatFlag, outputFlag } from '../flags.js';
import { loadCliConfig } from '../config-file.js';
import { writeJson, type CliIO } from '../io.js';
import { outputFile, verdictOut } from '../output.js';

export const MERGE: CommandSpec = {
  name: 'merge',
  summary: 'merge the JSON reports of matrix shards into one report, and apply the fail level once',
  args: '<report.json>...',
  details: [
    'The fail level is --fail-on, else fail-on of the configuration file (as audit reads it), else error.',
    'Reports compared with baselines (audit --baseline, the Action on a pull request) keep their comparison:',
    'each finding\'s baselineState and the fixed findings; when every report has one, the merged report is',
    'judged on its new findings (gate new), else on all of them.',
    'Exit codes: 0 no finding at or above it, 1 findings at or above it (or with --fail-on-unread a trace file not read), or nothing audited (no shard read a',
    'tool call; --allow-empty: 0), 2 usage, configuration or input error.',
  ],
  flags: [
    formatFlag(OUTPUT_FORMATS, 'json'),
    outputFlag('the merged report'),
    FAIL_ON_FLAG,
    { name: 'allow-empty', type: 'boolean', default: 'off', description: 'exit 0 when no shard read a tool call (the verdict still says nothing was audited)' },
    { ...FAIL_ON_UNREAD_FLAG, default: 'off' },
    CONFIG_FLAG,
  ],
  examples: ['agent-trace-audit merge shard-*/report.json --format markdown -o summary.md'],
  run: mergeCommand,
};

const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/** `merge`: shard reports in, one report out; the fail rule applied once to the merged findings. */
async function mergeCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length === 0) throw new UsageError('merge needs at least one report');
  const format = oneOf('format', args.string('format'), OUTPUT_FORMATS) ?? 'json';
  const { failOn, failOnUnread } = await loadCliConfig(io, args.string('config'), { ...failOnOverride(args), ...failOnUnreadOverride(args) });
  const outputName = args.string('output');
  const output = outputName === undefined ? null : await outputFile(io, outputName);
  const reports: Report[] = [];
  const cwdReal = realFolder(io.cwd);
  for (const path of args.positionals) reports.push(await readReport(resolve(io.cwd, path), path, namedConfinement(resolve(io.cwd, path), cwdReal, io.cwd), 'merge'));
  const merged = mergeReports(reports);
  // The fail level applied once, as audit does (the shards' suppressions are already in their reports; their comparisons kept).
  const judged = judge(merged, { config: { failOn, ...(failOnUnread ? { failOnUnread } : {}) }, baseline: null, defaultGate: merged.comparison ? 'new' : 'all', allowEmpty: args.boolean('allow-empty') });
  const rendered = renderReport(judged.report, format, [], judged, { notCompared: 'merge compares with no baseline' });
  if (output) await output.write(rendered);
  else if (format === 'json' || format === 'sarif') writeJson(io, rendered);
  else io.stdout(rendered);
  return verdictOut(io, judged, output !== null);
}

/** The first problem of a schema check, on one line and short. */
function oneLine(text: string): string {
  const first = text.split('\n')[0]!.trim();
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}

/** Reads a JSON report as untrusted input: size-capped and schema-validated. */
export async function readReport(path: string, shown: string, within: Confinement, reader: 'merge' | '--baseline'): Promise<Report> {
  const expected = `${reader} reads the reports \`audit --format json\` writes`;
  // The workspace rule (src/io/confine.ts) with the size checked before a byte is read: a device or FIFO is refused at once.
  const tooLarge = () => new InputError(shown, null, 'report-too-large', `${shown}: report is larger than ${MAX_REPORT_BYTES} bytes`);
  const text = readInputFile(path, shown, within, MAX_REPORT_BYTES, tooLarge).toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new InputError(shown, null, 'invalid-report', `${shown}: not an agent-trace-audit report (not JSON); ${expected}`);
  }
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) {
    // A trace or any other JSON file has no schemaVersion: say that, not every field it lacks.
    const isObject = typeof data === 'object' && data !== null && !Array.isArray(data);
    const why = isObject && Object.hasOwn(data as object, 'schemaVersion') ? oneLine(describeIssues(parsed.error)) : 'no schemaVersion: a trace or another JSON file';
    throw new InputError(shown, null, 'invalid-report', `${shown}: not an agent-trace-audit report (${why}); ${expected}`);
  }
  // Written by another job (a fork's run, a shard): untrusted text, sanitized as the Action's stored reports are.
  return sanitizeStoredReport(parsed.data);
}
