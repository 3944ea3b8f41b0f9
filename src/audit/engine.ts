import type { AuditConfig } from '../config.js';
import { formatById, FORMATS } from '../ingest/registry.js';
import type { Diagnostic, RecordSink, TraceFormat } from '../ingest/types.js';
import { openTraceFile } from '../io/trace-file.js';
import type { Finding } from '../model/finding.js';
import type { TraceRecord } from '../model/records.js';
import { RunBuilder, type Run } from '../model/run.js';
import { runCatalog } from './catalog/run-catalog.js';
import { compareFindings, makeFinding } from './findings.js';
import { RULES } from './rules/index.js';
import type { FindingDraft, ReportFn, Rule, RuleContext } from './rule-types.js';

/** One file to audit: where to read it and the name the report uses for it. */
export interface AuditInput {
  readonly path: string;
  readonly display: string;
}

export interface FileSummary {
  readonly path: string;
  readonly format: string;
  readonly records: number;
  readonly runs: number;
}

export interface RunSummary {
  readonly file: string;
  readonly runId: string | null;
  readonly format: string;
  readonly catalogSha256: string | null;
  readonly toolCalls: number;
  readonly toolResults: number;
}

export interface AuditResult {
  readonly files: FileSummary[];
  readonly runs: RunSummary[];
  readonly findings: Finding[];
  readonly metrics: Record<string, unknown>;
}

export interface AuditOptions {
  /** Force one format for every file (`--input-format`). */
  readonly inputFormat?: string;
  /** Called with each complete run after the rules ran (renderers that draw runs). */
  readonly onRun?: (run: Run) => void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRule = Rule<any, any>;
interface ActiveRule {
  readonly rule: AnyRule;
  readonly severity: 'error' | 'warning' | 'note';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly ctx: RuleContext<any, any>;
}

const LINE_FORMAT_FALLBACK = /\.(jsonl|ndjson)(\.gz)?$/i;

/**
 * Audits files one after another: detect the format, stream records into runs,
 * run every enabled rule on each complete run, then the cross-run rules.
 * A crashing rule becomes a `rule-crash` finding; a bad record a `malformed-record`.
 */
export async function runAudit(inputs: readonly AuditInput[], config: AuditConfig, options: AuditOptions = {}): Promise<AuditResult> {
  const findings: Finding[] = [];
  const metrics: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const active = activeRules(config, metrics);
  const files: FileSummary[] = [];
  const runs: RunSummary[] = [];
  const emit = (ruleId: string, draft: FindingDraft) => {
    const setting = config.rules.get(ruleId);
    if (!setting || setting.severity === 'off') return;
    findings.push(makeFinding(ruleId, setting.severity, draft));
  };

  const ordered = [...inputs].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  for (const input of ordered) {
    const summary = await auditFile(input, config, options, active, emit, (run) => {
      runs.push(summarizeRun(run));
      options.onRun?.(run);
    });
    files.push(summary);
  }
  for (const { rule, ctx } of active) {
    if (!rule.finish) continue;
    guarded(rule, emit, { file: '(audit)', line: 0 }, null, (report) => rule.finish!(ctx, report));
  }
  findings.sort(compareFindings);
  return { files, runs, findings, metrics };
}

async function auditFile(
  input: AuditInput,
  config: AuditConfig,
  options: AuditOptions,
  active: readonly ActiveRule[],
  emit: (ruleId: string, draft: FindingDraft) => void,
  onRun: (run: Run) => void,
): Promise<FileSummary> {
  const opened = await openTraceFile(input.path, input.display, config.limits);
  const format = chooseFormat(opened.sample, input.display, options.inputFormat);
  const diagnose = (d: Diagnostic) =>
    emit(d.ruleId, { loc: { file: input.display, line: d.line }, message: d.message, runId: d.runId ?? null, callId: d.callId ?? null, tool: d.tool ?? null });
  if (!format) {
    const shape = describeShape(opened.sample.head);
    diagnose({ ruleId: 'unknown-format', line: 0, message: `fits no supported trace format (${shape})` });
    return { path: input.display, format: 'unknown', records: 0, runs: 0 };
  }

  const open = new Map<string, RunBuilder>();
  let records = 0;
  let runCount = 0;
  let lastDiagnosticLine = 0;
  const close = (key: string) => {
    const builder = open.get(key);
    if (!builder) return;
    open.delete(key);
    const run = builder.finish();
    runCount += 1;
    for (const { rule, ctx } of active) {
      if (!rule.check) continue;
      guarded(rule, emit, { file: input.display, line: run.records[0]?.loc.line ?? 0 }, run.runId, (report) => rule.check!(run, ctx, report));
    }
    onRun(run);
  };
  const sink: RecordSink = {
    record(record: TraceRecord) {
      records += 1;
      const key = record.runId ?? '';
      let builder = open.get(key);
      if (!builder) {
        builder = new RunBuilder(input.display, record.runId, format.id);
        open.set(key, builder);
      }
      builder.add(record);
    },
    diagnostic(d) {
      lastDiagnosticLine = Math.max(lastDiagnosticLine, d.line);
      diagnose(d);
    },
    endRun(runId) {
      close(runId ?? '');
    },
  };
  await format.parse(opened.input, sink);

  const facts = opened.facts;
  if (facts.bom) diagnose({ ruleId: 'byte-order-mark', line: 1, message: 'file starts with a UTF-8 byte order mark' });
  if (facts.missingFinalNewline && lastDiagnosticLine !== facts.lines) {
    diagnose({ ruleId: 'missing-final-newline', line: facts.lines, message: 'last record has no final newline' });
  }
  for (const source of opened.sources) {
    if (!source.problem) continue;
    const ruleId = source.problem.code === 'gzip-truncated' ? 'truncated-tail' : 'malformed-record';
    diagnose({ ruleId, line: facts.lines, message: `${source.problem.message} (after line ${facts.lines})` });
  }
  for (const key of [...open.keys()]) close(key);
  return { path: input.display, format: format.id, records, runs: runCount };
}

function chooseFormat(sample: Parameters<TraceFormat['detect']>[0], display: string, forced: string | undefined): TraceFormat | undefined {
  if (forced) return formatById(forced);
  const found = FORMATS.find((format) => format.detect(sample));
  if (found) return found;
  // A .jsonl file is read as native JSONL even when its first lines fit nothing:
  // each bad record is then reported where it is, instead of one verdict for the file.
  return LINE_FORMAT_FALLBACK.test(display) ? formatById('native-jsonl') : undefined;
}

function describeShape(head: Buffer): string {
  if (head.length === 0) return 'the file is empty';
  if (head[0] === 0x50 && head[1] === 0x4b) return 'a zip archive';
  const text = head.subarray(0, 4096).toString('utf8').trimStart();
  if (text.startsWith('{')) {
    try {
      const keys = Object.keys(JSON.parse(head.toString('utf8')) as object).slice(0, 6);
      return `a JSON object with keys ${keys.map((k) => JSON.stringify(k)).join(', ')}`;
    } catch {
      return 'text starting with "{" that is not one JSON document';
    }
  }
  if (text.startsWith('[')) return 'a JSON array of unknown records';
  return `${head.length} bytes that are not JSON`;
}

function activeRules(config: AuditConfig, metrics: Record<string, unknown>): ActiveRule[] {
  const out: ActiveRule[] = [];
  for (const rule of RULES) {
    const setting = config.rules.get(rule.meta.id);
    if (!setting || setting.severity === 'off' || (!rule.check && !rule.finish)) continue;
    const state = rule.init ? rule.init(setting.options) : undefined;
    const ctx = {
      options: setting.options,
      state,
      metric: (name: string, value: unknown) => {
        metrics[`${rule.meta.id}.${name}`] = value;
      },
    };
    out.push({ rule, severity: setting.severity, ctx });
  }
  return out;
}

function guarded(
  rule: AnyRule,
  emit: (ruleId: string, draft: FindingDraft) => void,
  where: { file: string; line: number },
  runId: string | null,
  body: (report: ReportFn) => void,
): void {
  const report: ReportFn = (draft) => emit(rule.meta.id, draft);
  try {
    body(report);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : 'unknown error';
    if (process.env['AGENT_TRACE_AUDIT_DEBUG'] && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    emit('rule-crash', { loc: where, runId, message: `rule '${rule.meta.id}' crashed on this run (${reason}); its findings for the run are missing`, key: rule.meta.id });
  }
}

function summarizeRun(run: Run): RunSummary {
  // The run's catalog identity is recomputed, never taken on trust: the JCS hash of
  // the sorted names, or the recorded hash when it matches the Python form (so runs
  // written by a Python harness keep the hash it printed). See CheckedCatalog.sha256.
  const catalog = runCatalog(run);
  return {
    file: run.file,
    runId: run.runId,
    format: run.format,
    catalogSha256: catalog ? catalog.sha256 : null,
    toolCalls: run.calls.length,
    toolResults: run.results.length,
  };
}
