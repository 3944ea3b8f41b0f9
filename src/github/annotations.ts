import * as core from '@actions/core';
import { SEVERITY_RANK, type Finding, type Severity } from '../model/finding.js';
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

/** Slots per level kept for our own step warnings; `max-annotations` defaults to the rest. */
export const RESERVED_ANNOTATIONS = 2;
export const DEFAULT_MAX_ANNOTATIONS = ANNOTATIONS_PER_LEVEL - RESERVED_ANNOTATIONS;

export interface AnnotateOptions {
  /** Findings annotated per level (max-annotations). */
  readonly perLevel?: number;
  /** Fingerprints new in this pull request: annotated before the old ones of the same level. */
  readonly added?: ReadonlySet<string>;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Annotations on the trace files: the most severe first, the findings new in
 * this pull request before the old ones, then by path and line; up to
 * `perLevel` per level (GitHub shows 10 per level per step, and we keep two for
 * our own warnings), then one line with the count of those not shown. Returns
 * how many were not shown.
 */
export function annotate(findings: readonly Finding[], sink: AnnotationSink = actionsAnnotationSink, options: AnnotateOptions = {}): number {
  const cap = Math.max(0, options.perLevel ?? DEFAULT_MAX_ANNOTATIONS);
  const added = options.added ?? new Set<string>();
  const isNew = (f: Finding) => (added.has(f.fingerprint) ? 1 : 0);
  const ordered = [...findings].sort(
    (a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || isNew(b) - isNew(a) || cmp(a.file, b.file) || a.line - b.line || cmp(a.ruleId, b.ruleId) || cmp(a.fingerprint, b.fingerprint),
  );
  const used: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  let hidden = 0;
  for (const f of ordered) {
    if (used[f.severity] >= cap) {
      hidden += 1;
      continue;
    }
    used[f.severity] += 1;
    const title = isNew(f) ? `${f.ruleId} (new in this PR)` : f.ruleId;
    const props: core.AnnotationProperties = { title, file: f.file, ...(f.line > 0 ? { startLine: f.line } : {}) };
    if (f.severity === 'error') sink.error(f.message, props);
    else if (f.severity === 'warning') sink.warning(f.message, props);
    else sink.notice(f.message, props);
  }
  if (hidden > 0) sink.info(`${hidden} finding(s) not shown as annotations (${cap} per level, max-annotations; GitHub shows ${ANNOTATIONS_PER_LEVEL} per level per step); all are in the job summary and the JSON report.`);
  return hidden;
}
