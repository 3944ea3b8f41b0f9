import { UsageError } from '../../errors.js';
import { namedPath } from '../../io/confine.js';
import { openTraceFile } from '../../io/trace-file.js';
import { SHOWN_ITEMS, tryMapping, type MappingTry } from '../../ingest/custom/try-mapping.js';
import type { CustomFormatSpec } from '../../ingest/custom/index.js';
import { nearest } from '../../nearest.js';
import { sanitizeText } from '../../sanitize/text.js';
import type { CommandSpec, ParsedArgs } from '../command.js';
import { loadCliConfig } from '../config-file.js';
import { CONFIG_FLAG } from '../flags.js';
import type { CliIO } from '../io.js';

const SUBCOMMANDS = ['try'];

export const FORMATS_COMMAND: CommandSpec = {
  name: 'formats',
  summary: "try a formats: mapping of the configuration file on one file: what it extracts, and what it missed",
  args: 'try <file>',
  details: [
    'Reads the file with the mapping alone (no detection, no rules) and prints the first calls and results it',
    'extracted (id, tool, arguments or output, run; sanitized and cut), the counts, the calls and results whose id',
    'has no partner, and the mapping warnings: a key that selected nothing, a tool name that is not a name,',
    'records it could not read (docs/formats/custom.md).',
    'Exit codes: 0 the mapping read calls or results and has no warning, 1 it has a warning or read nothing,',
    '2 usage, configuration or input error.',
  ],
  flags: [
    CONFIG_FLAG,
    { name: 'input-format', type: 'string', value: 'name', default: 'the only mapping of the configuration file', description: "the mapping to try: a name from the configuration file's formats: section" },
  ],
  examples: ['agent-trace-audit formats try runs/results.jsonl --config agent-trace-audit.yml --input-format rl-eval'],
  run: formatsCommand,
};

async function formatsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const [sub, file, ...rest] = args.positionals;
  if (sub === undefined) throw new UsageError(`formats needs a subcommand: ${SUBCOMMANDS.join(', ')}`);
  if (!SUBCOMMANDS.includes(sub)) {
    const guess = nearest(sub, SUBCOMMANDS);
    throw new UsageError(`unknown formats subcommand ${JSON.stringify(sub)}${guess === null ? '' : `: did you mean ${guess}?`} (subcommands: ${SUBCOMMANDS.join(', ')})`);
  }
  if (file === undefined || rest.length > 0) throw new UsageError('formats try takes exactly one file');
  const config = await loadCliConfig(io, args.string('config'));
  const spec = chosenMapping(config.formats ?? [], args.string('input-format'));
  const opened = await openTraceFile(namedPath(io.cwd, file, 'file'), file, config.limits);
  const tried = await tryMapping(spec, opened.input);
  io.stdout(renderTry(file, spec, tried));
  return warnings(tried).length > 0 || tried.callCount + tried.resultCount === 0 ? 1 : 0;
}

function chosenMapping(formats: readonly CustomFormatSpec[], name: string | undefined): CustomFormatSpec {
  const names = formats.map((f) => f.name);
  if (formats.length === 0) throw new UsageError('the configuration file has no formats: section: give the file that holds the mapping with --config');
  if (name === undefined) {
    if (formats.length === 1) return formats[0]!;
    throw new UsageError(`--input-format names the mapping to try: one of ${names.join(', ')}`);
  }
  const spec = formats.find((f) => f.name === name);
  if (spec) return spec;
  const guess = nearest(name, names);
  throw new UsageError(`--input-format must name a mapping of the configuration file (${names.join(', ')}), not ${JSON.stringify(name)}${guess === null ? '' : ` (did you mean ${guess}?)`}`);
}

const text = (value: unknown, max: number): string => {
  if (value === undefined) return '-';
  const raw = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return sanitizeText(raw, { maxChars: max });
};

/** The mapping's warnings: its misses, the records it could not read, and the items it selected and could not read. */
function warnings(t: MappingTry): string[] {
  const out = t.diagnostics.map((d) => `${d.ruleId}${d.line > 0 ? ` (line ${d.line})` : ''}: ${text(d.message, 300)}`);
  for (const [reason, { count, firstLine, toolLike }] of t.skipped) {
    if (toolLike) out.push(`${count} skipped: ${text(reason, 200)} (first at line ${firstLine})`);
  }
  return out;
}

/** The text `formats try` prints (every value from the trace sanitized and cut). */
export function renderTry(file: string, spec: CustomFormatSpec, t: MappingTry): string {
  const lines = [
    `${text(file, 200)} read with formats.${spec.name} (layout: ${spec.layout})`,
    `calls: ${t.callCount}, results: ${t.resultCount}, runs: ${t.runs}, catalog tools: ${t.catalogTools}`,
    t.callIds > 0 && t.resultIds > 0
      ? `unmatched by id: ${t.unansweredCalls} call(s) without a result, ${t.unmatchedResults} result(s) without a call`
      : `unmatched by id: not checked (${t.callIds === 0 ? 'the calls' : 'the results'} carry no ids: paired by order and tool when audited)`,
  ];
  if (t.calls.length > 0) {
    lines.push('', `first calls (${Math.min(SHOWN_ITEMS, t.callCount)} of ${t.callCount}):`);
    for (const c of t.calls) lines.push(`  line ${c.loc.line}  run ${text(c.runId ?? '-', 60)}  id ${text(c.callId ?? '-', 60)}  tool ${text(c.tool, 60)}  arguments ${text(c.args, 100)}`);
  }
  if (t.results.length > 0) {
    lines.push('', `first results (${Math.min(SHOWN_ITEMS, t.resultCount)} of ${t.resultCount}):`);
    for (const r of t.results) {
      lines.push(`  line ${r.loc.line}  run ${text(r.runId ?? '-', 60)}  id ${text(r.callId ?? '-', 60)}  tool ${text(r.tool ?? '-', 60)}${r.isError ? '  error' : ''}  output ${text(r.content, 100)}`);
    }
  }
  const warned = warnings(t);
  lines.push('', warned.length === 0 ? 'mapping warnings: none' : 'mapping warnings:', ...warned.map((w) => `  ${w}`));
  const other = [...t.skipped].filter(([, s]) => !s.toolLike);
  if (other.length > 0) lines.push('', 'records that gave nothing:', ...other.map(([reason, s]) => `  ${s.count} ${text(reason, 200)} (first at line ${s.firstLine})`));
  return `${lines.join('\n')}\n`;
}
