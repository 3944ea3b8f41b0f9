import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { runAudit } from '../audit/engine.js';
import type { AuditConfig, RuleSetting } from '../config.js';
import { InputError } from '../errors.js';
import { collectInputs } from '../io/collect.js';
import { cmp } from '../audit/findings.js';
import type { CliIO } from './io.js';

/** Read problems that make a transcript unusable: replay parsing is strict, so these stop the command. */
const FATAL = new Set(['malformed-record', 'truncated-tail']);

export interface TranscriptFinding {
  readonly index: number;
  readonly rule: string;
  readonly line: number;
  readonly tool: string | null;
  readonly message: string;
}

export interface TranscriptAudit {
  readonly file: string;
  readonly calls: number;
  /** Sorted by index, then rule id. */
  readonly findings: TranscriptFinding[];
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
  const { inputs, skipped } = await collectInputs([path], { root: io.cwd, exclude: [], strict: true });
  const input = inputs[0];
  if (!input) throw new InputError(path, null, 'unreadable', `${path}: ${skipped[0]?.reason ?? 'cannot be read'}`);

  const rules = new Map<string, RuleSetting>();
  for (const [id, setting] of config.rules) {
    if (FATAL.has(id)) rules.set(id, { severity: 'error', options: setting.options });
    else if (ruleIds.includes(id)) rules.set(id, { severity: 'error', options: overrides.has(id) ? overrides.get(id) : setting.options });
    else rules.set(id, { severity: 'off', options: setting.options });
  }
  const indexByLine = new Map<number, number>();
  let calls = 0;
  let foreign: number | null = null;
  const result = await runAudit([input], { ...config, rules }, {
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
  const fatal = result.findings.find((f) => FATAL.has(f.ruleId));
  const badLine = fatal && (foreign === null || fatal.line <= foreign) ? fatal.line : foreign;
  if (badLine !== null) {
    const reason = fatal && fatal.line === badLine ? fatal.message : 'not a transcript record: expected exactly {index, tool, args, response}';
    throw new InputError(input.display, badLine, 'malformed-transcript', `${input.display}:${badLine}: ${reason}`);
  }
  const findings = result.findings
    .filter((f) => ruleIds.includes(f.ruleId))
    .map((f) => ({ index: indexByLine.get(f.line) ?? -1, rule: f.ruleId, line: f.line, tool: f.tool, message: f.message }))
    .sort((a, b) => a.index - b.index || cmp(a.rule, b.rule) || cmp(a.message, b.message));
  return { file: input.display, calls, findings };
}

/** The line report: `calls: N`, optional header lines, `findings: N`, then `index I: rule: message`. */
export function renderTranscriptText(audit: TranscriptAudit, header: readonly string[] = []): string {
  const lines = [`calls: ${audit.calls}`, ...header, `findings: ${audit.findings.length}`];
  for (const f of audit.findings) lines.push(`index ${f.index}: ${f.rule}: ${f.message}`);
  return `${lines.join('\n')}\n`;
}
