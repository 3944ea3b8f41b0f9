import type { AuditConfig } from './audit-config.js';
import { FindingStore } from '../findings/finding-store.js';
import { makeFinding } from '../findings/findings.js';
import { RunMemos } from '../held/memo.js';
import type { Run } from '../../model/run.js';
import { addMetrics } from './metrics.js';
import { overflowDraft, PerFileCap, type FileCapResult } from '../findings/per-file-cap.js';
import { RULES } from '../rules/index.js';
import type { FindingDraft, ReportFn, Rule, RuleContext } from '../rules/rule-types.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRule = Rule<any, any>;
export interface ActiveRule {
  readonly rule: AnyRule;
  readonly severity: 'error' | 'warning' | 'note';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly ctx: RuleContext<any, any>;
}

export type Emit = (ruleId: string, draft: FindingDraft) => void;

/** The enabled rules with a context each (options, a fresh state, metrics into `metrics`). */
export function activeRules(config: AuditConfig, metrics: Record<string, unknown>): ActiveRule[] {
  const out: ActiveRule[] = [];
  for (const rule of RULES) {
    const setting = config.rules.get(rule.meta.id);
    if (!setting || setting.severity === 'off' || (!rule.check && !rule.finish && !rule.record)) continue;
    const state = rule.init ? rule.init(setting.options) : undefined;
    const ctx = {
      options: setting.options,
      state,
      memos: new RunMemos(),
      metric: (name: string, value: number | Record<string, number>) => addMetrics(metrics, { [`${rule.meta.id}.${name}`]: value }),
    };
    out.push({ rule, severity: setting.severity, ctx });
  }
  return out;
}

/** Makes a rule's finding (when the rule is on) and lists it through `cap`, or straight into `store`. */
export function emitter(config: AuditConfig, store: FindingStore, cap?: PerFileCap): Emit {
  return (ruleId, draft) => {
    const setting = config.rules.get(ruleId);
    if (!setting || setting.severity === 'off') return;
    const severity = setting.severity;
    if (cap) cap.admit(ruleId, draft, () => makeFinding(ruleId, severity, draft));
    else store.add(makeFinding(ruleId, severity, draft));
  };
}

/** Puts what a cap released into the store: the listed findings, and one finding per rule for the rest. */
export function storeReleased(config: AuditConfig, store: FindingStore, released: FileCapResult, cap: number): void {
  for (const entry of released.listed) store.add(entry.finding);
  const emit = emitter(config, store);
  for (const over of released.over) emit(over.ruleId, overflowDraft(over, cap));
}

/** Runs a rule's body; a crash becomes a `rule-crash` finding at `where`, never a crash of the audit. */
export function guarded(rule: AnyRule, emit: Emit, where: { file: string; line: number }, runId: string | null, body: (report: ReportFn) => void): void {
  const report: ReportFn = (draft) => emit(rule.meta.id, draft);
  try {
    body(report);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : 'unknown error';
    if (process.env['AGENT_TRACE_AUDIT_DEBUG'] && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    emit('rule-crash', { loc: where, runId, message: `rule '${rule.meta.id}' crashed on this run (${reason}); its findings for the run are missing`, key: rule.meta.id });
  }
}

/** Every per-run rule's `check` on a complete run (a rule whose record stage crashed on it reports the crash instead); the run's memos. */
export function checkRun(run: Run, active: readonly ActiveRule[], crashes: ReadonlyMap<AnyRule, unknown> | undefined, emit: Emit, where: { file: string; line: number }): RunMemos {
  const memos = new RunMemos(); // the run's memos, released with it
  for (const { rule, ctx } of active) {
    if (crashes?.has(rule)) {
      guarded(rule, emit, where, run.runId, () => {
        throw crashes.get(rule);
      });
    } else if (rule.check) guarded(rule, emit, where, run.runId, (report) => rule.check!(run, { ...ctx, memos }, report));
  }
  return memos;
}
