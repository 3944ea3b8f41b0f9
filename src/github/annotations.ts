import * as core from '@actions/core';
import type { Finding, Severity } from '../model/finding.js';
import { guardCommands } from './command-guard.js';

/** GitHub shows at most 10 annotations of each level per step (and 50 per job). */
export const ANNOTATIONS_PER_LEVEL = 10;

export interface AnnotationSink {
  error(message: string, props: core.AnnotationProperties): void;
  warning(message: string, props: core.AnnotationProperties): void;
  notice(message: string, props: core.AnnotationProperties): void;
  info(message: string): void;
}

export const actionsAnnotationSink: AnnotationSink = {
  error: (m, p) => core.error(m, p),
  warning: (m, p) => core.warning(m, p),
  notice: (m, p) => core.notice(m, p),
  info: (m) => core.info(guardCommands(m)),
};

/**
 * Annotations on the trace files, the first findings of each level up to
 * GitHub's cap (`reserved` slots per level are kept for our own warnings),
 * then one line with the count of those not shown. Returns how many were not shown.
 */
export function annotate(findings: readonly Finding[], sink: AnnotationSink = actionsAnnotationSink, reserved = 2): number {
  const cap = Math.max(0, ANNOTATIONS_PER_LEVEL - reserved);
  const used: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  let hidden = 0;
  for (const f of findings) {
    if (used[f.severity] >= cap) {
      hidden += 1;
      continue;
    }
    used[f.severity] += 1;
    const props: core.AnnotationProperties = { title: f.ruleId, file: f.file, ...(f.line > 0 ? { startLine: f.line } : {}) };
    if (f.severity === 'error') sink.error(f.message, props);
    else if (f.severity === 'warning') sink.warning(f.message, props);
    else sink.notice(f.message, props);
  }
  if (hidden > 0) sink.info(`${hidden} finding(s) not shown as annotations (GitHub shows ${ANNOTATIONS_PER_LEVEL} per level per step); all are in the job summary and the JSON report.`);
  return hidden;
}
