import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { materialize, runAudit } from '../../audit/engine/engine.js';
import type { AuditConfig, RuleSetting } from '../../config/config.js';
import { InputError } from '../../errors.js';
import { collectInputs } from '../../io/collect.js';
import { cmp } from '../../audit/findings/findings.js';
import { ruleById } from '../../audit/rules/index.js';
import { SEVERITY_RANK, type Severity } from '../../model/finding.js';
import type { CliIO } from '../io.js';

/** Read problems that make a transcript unusable: replay parsing is strict, so these stop the command. */
const FATAL = new Set(['malformed-record', 'truncated-tail']);

/** A finding of replay or scope: the shape of an audit finding (ruleId, severity, file, line) plus the transcript index. */
export interface TranscriptFinding {
  readonly index: number;
  readonly ruleId: string;
  readonly severity: Severity;
  readonly file: string;
  readonly line: number;
  readonly tool: string | null;
  readonly message: string;
}

export interface TranscriptAudit {
  readonly file: string;
  readonly calls: number;
  /** Sorted by index, then rule id. */
  readonly findings: TranscriptFinding[];
  /** True when a finding is at or above the configuration's fail level. */
  readonly failed: boolean;
}

/**
 * Audits one replay transcript ({index, tool, args, response} per line) with
 * only the given rules, keeping their options from the configuration (or
 * `overrides`). A malformed record or one that is not a transcript record is an
 * InputError naming file:line.
 */
export async function auditTranscript(
  io: CliIO,
  path: string,
  config: AuditConfig,
  ruleIds: readonly string[],
  overrides: ReadonlyMap<string, unknown> = new Map(),
): Promise<TranscriptAudit> {
  const info = await stat(resolve(io.cwd, path)).catch(() => null);
  if (info !== null && !info.isFile()) throw new InputError(path, null, 'not-a-file', `${path}: a transcript must be a file`);
  const { inputs, skipped } = await collectInputs([path], { root: io.cwd, exclude: [], strict: true, trustNamed: true });
  const input = inputs[0];
  if (!input) throw new InputError(path, null, 'refused', `${path}: ${skipped[0]?.reason ?? 'cannot be read'}`);

  const rules = new Map<string, RuleSetting>();
  for (const [id, setting] of config.rules) {
    if (FATAL.has(id)) rules.set(id, { severity: 'error', options: setting.options });
    else if (ruleIds.includes(id)) {
      // The command exists to run these rules: one the configuration turned off runs at its default severity.
      const severity = setting.severity === 'off' ? (ruleById(id)?.meta.defaultSeverity ?? 'error') : setting.severity;
      rules.set(id, { severity, options: overrides.has(id) ? overrides.get(id) : setting.options });
    }
    else rules.set(id, { severity: 'off', options: setting.options });
  }
  const indexByLine = new Map<number, number>();
  let calls = 0;
  let foreign: number | null = null;
  const stored = await runAudit([input], { ...config, rules }, {
    inputFormat: 'native-jsonl',
    onRun(run) {
      for (const record of run.records) {
        const index = record.kind === 'tool_call' || record.kind === 'tool_result' ? record.index : null;
        if (index === null) foreign = Math.min(foreign ?? record.loc.line, record.loc.line);
        else if (record.kind === 'tool_call') {
          calls += 1;
          indexByLine.set(record.loc.line, index);
        }
      }
    },
  });
  const result = materialize(stored);
  const fatal = result.findings.find((f) => FATAL.has(f.ruleId));
  const badLine = fatal && (foreign === null || fatal.line <= foreign) ? fatal.line : foreign;
  if (badLine !== null) {
    const reason = fatal && fatal.line === badLine ? fatal.message : 'not a transcript record: expected exactly {index, tool, args, response}';
    throw new InputError(input.display, badLine, 'malformed-transcript', `${input.display}:${badLine}: ${reason}`);
  }
  const findings = result.findings
    .filter((f) => ruleIds.includes(f.ruleId))
    .map((f) => ({ index: indexByLine.get(f.line) ?? -1, ruleId: f.ruleId, severity: f.severity, file: f.file, line: f.line, tool: f.tool, message: f.message }))
    .sort((a, b) => a.index - b.index || cmp(a.ruleId, b.ruleId) || cmp(a.message, b.message));
  const failed = config.failOn !== 'never' && findings.some((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[config.failOn as Severity]);
  return { file: input.display, calls, findings, failed };
}

/** The line report: `calls: N`, optional header lines, `findings: N`, then `index I: rule: message`. */
export function renderTranscriptText(audit: TranscriptAudit, header: readonly string[] = []): string {
  const lines = [`calls: ${audit.calls}`, ...header, `findings: ${audit.findings.length}`];
  for (const f of audit.findings) lines.push(`index ${f.index}: ${f.ruleId}: ${f.message}`);
  return `${lines.join('\n')}\n`;
}
