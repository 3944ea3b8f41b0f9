import { SEVERITY_RANK, type Finding, type Severity } from '../../model/finding.js';
import { sanitizeText } from '../../sanitize/text.js';
import type { Report } from '../schema.js';

/** The Checks API takes at most 50 annotations per request (more is a 422). */
export const ANNOTATIONS_PER_REQUEST = 50;
/** The default and the largest `check-run-max-annotations`: 1,000 is 20 requests; 5,000 is 100. */
export const DEFAULT_CHECK_ANNOTATIONS = 1000;
export const MAX_CHECK_ANNOTATIONS = 5000;

const LEVEL: Readonly<Record<Severity, CheckAnnotation['annotation_level']>> = { error: 'failure', warning: 'warning', note: 'notice' };

/** One annotation as the Checks API takes it (output.annotations[]). */
export interface CheckAnnotation {
  readonly path: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly annotation_level: 'failure' | 'warning' | 'notice';
  readonly title: string;
  readonly message: string;
  readonly raw_details?: string;
}

export interface AnnotationPlan {
  /** Annotations in the order they are sent: most severe first, then new against the base branch, then report order. */
  readonly annotations: readonly CheckAnnotation[];
  /** Findings in files that are not committed at the head (read from an artifact, written during the run, outside the workspace), in the same order. */
  readonly notInRepository: readonly Finding[];
  /** Findings in the repository left out by the cap. */
  readonly overCap: number;
}

export interface PlanOptions {
  /** At most this many annotations (0 to MAX_CHECK_ANNOTATIONS). */
  readonly cap: number;
  /** Fingerprints of the base branch's findings: a finding not among them is new and goes first within its severity. */
  readonly baseFingerprints?: ReadonlySet<string>;
  /**
   * The files committed at the head commit (the workspace's git index): GitHub
   * shows an annotation only on a path of the commit, so a finding in any other
   * file (read from an artifact, written during the run, a member of an
   * archive) goes to the summary instead. Absent: every file but artifact and
   * outside paths counts as committed.
   */
  readonly tracked?: ReadonlySet<string>;
}

/**
 * Which findings become check-run annotations and in which order. GitHub
 * shows an annotation only on a path of the commit, so findings in files read
 * from an artifact (`<artifact name>/…`), or shown as an absolute or `..`
 * path, are set apart for the summary. Trace text passes the sanitizer.
 */
export function planAnnotations(report: Report, options: PlanOptions): AnnotationPlan {
  const artifactPrefixes = (report.artifacts ?? []).map((a) => `${a.name}/`);
  const tracked = options.tracked;
  const inRepository = (file: string) => !isOutsidePath(file) && !artifactPrefixes.some((prefix) => file.startsWith(prefix)) && (tracked === undefined || tracked.has(file));
  const ordered = orderForReview(report.findings, options.baseFingerprints);
  const repo: Finding[] = [];
  const notInRepository: Finding[] = [];
  for (const f of ordered) (inRepository(f.file) ? repo : notInRepository).push(f);
  const cap = Math.max(0, Math.min(options.cap, MAX_CHECK_ANNOTATIONS));
  const kept = repo.slice(0, cap);
  return { annotations: kept.map(toAnnotation), notInRepository, overCap: repo.length - kept.length };
}

/** Most severe first; within a severity, findings new against the base branch first; otherwise report order (stable). */
export function orderForReview(findings: readonly Finding[], baseFingerprints?: ReadonlySet<string>): Finding[] {
  const isNew = (f: Finding) => (baseFingerprints === undefined || !baseFingerprints.has(f.fingerprint) ? 1 : 0);
  return findings
    .map((finding, index) => ({ finding, index, rank: SEVERITY_RANK[finding.severity], fresh: isNew(finding) }))
    .sort((a, b) => b.rank - a.rank || b.fresh - a.fresh || a.index - b.index)
    .map((entry) => entry.finding);
}

/** Consecutive slices of at most `size` (the first goes with the create request, the rest with updates). */
export function batches<T>(items: readonly T[], size = ANNOTATIONS_PER_REQUEST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** An absolute path, a Windows drive path or one that leaves the workspace: never a path of the commit. */
function isOutsidePath(file: string): boolean {
  return file === '' || file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file) || file === '..' || file.startsWith('../') || file.includes('/../');
}

function toAnnotation(f: Finding): CheckAnnotation {
  const line = f.line > 0 ? f.line : 1;
  const details = [f.runId !== null ? `run ${f.runId}` : '', f.callId !== null ? `call ${f.callId}` : '', f.tool !== null ? `tool ${f.tool}` : '', `fingerprint ${f.fingerprint}`]
    .filter((part) => part !== '')
    .join(', ');
  return {
    path: sanitizeText(f.file, { maxChars: 1000 }),
    start_line: line,
    end_line: line,
    annotation_level: LEVEL[f.severity],
    title: sanitizeText(f.ruleId, { maxChars: 200 }),
    message: sanitizeText(f.message, { maxChars: 2000 }),
    raw_details: sanitizeText(details, { maxChars: 1000 }),
  };
}
