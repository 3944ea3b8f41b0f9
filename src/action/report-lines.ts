import type { Report } from '../report/schema.js';
import type { Baseline } from '../github/baseline.js';
import { codeSpan } from '../report/render/markdown-escape.js';
import { metricsLines } from '../report/render/metrics-view.js';
import { diffAgainstBase, type BaseDiff } from './base-diff.js';

export interface Links {
  readonly runUrl: string;
  readonly artifactUrl: string;
  readonly artifactName: string;
  readonly sealDigest: string;
  readonly shard: string;
  /** The run the artifact belongs to (for the verify command of the seal line); absent: no command. */
  readonly runId?: number;
  /** Values redacted before sealing and in how many files; absent: redaction was off. */
  readonly sealRedacted?: { readonly values: number; readonly files: number };
}

/** Tool names listed per change kind; the rest are counted (head lines are kept whole, so they stay short). */
const MAX_NAMES = 10;

/**
 * The lines we write ourselves above the findings: run and artifact links,
 * seal digest, the unmapped-error share and recovery distribution, and the
 * comparison with the base branch. Our own text, numbers and hex digests;
 * names we build go through `safeWord`, tool names from traces into code spans.
 */
export interface HeadLines {
  /** Every line below, in order, for the job summary. */
  readonly lines: string[];
  /** Run and artifact links, seal digest, artifacts read. */
  readonly details: string[];
  /** The unmapped-error share and the recovery distribution. */
  readonly metrics: string[];
  /** The comparison with the base branch (or why there is none). */
  readonly base: string[];
  readonly diff: BaseDiff | undefined;
}

export function headLines(report: Report, links: Links, baseline: Baseline | undefined): HeadLines {
  const details: string[] = [];
  const run = links.runUrl ? `[workflow run](${links.runUrl})` : 'this run';
  const artifact = links.artifactUrl ? `, artifact [${safeWord(links.artifactName)}](${links.artifactUrl})` : '';
  details.push(`Details: ${run}${artifact}.${links.shard ? ` Shard \`${safeWord(links.shard)}\`.` : ''}`);
  if (links.sealDigest) details.push(sealLine(links));
  if (report.artifacts?.length) details.push(`Artifacts read: ${report.artifacts.map((a) => `\`${safeWord(a.name)}\` (${a.files} file(s))`).join(', ')}.`);
  const metrics = metricsLines(report.metrics);
  const { base, diff } = baseLines(report, baseline);
  const lines = [...details, ...(metrics.length > 0 ? ['', ...metrics] : []), ...(base.length > 0 ? ['', ...base] : [])];
  return { lines, details, metrics, base, diff };
}

/**
 * The seal digest, how many secret values were redacted before sealing, and
 * the one command line that checks the downloaded artifact against the digest.
 */
export function sealLine(links: Links): string {
  const redacted = links.sealRedacted ? ` (${links.sealRedacted.values} secret value(s) redacted in ${links.sealRedacted.files} file(s) before sealing)` : '';
  const name = safeWord(links.artifactName);
  const verify = links.runId ? `. Verify: \`gh run download ${links.runId} -n ${name} -D ${name} && agent-trace-audit verify ${name} --seal-digest ${links.sealDigest}\`` : '';
  return `Seal digest: \`${links.sealDigest}\`${redacted}${verify}`;
}

function baseLines(report: Report, baseline: Baseline | undefined): { base: string[]; diff: BaseDiff | undefined } {
  const lines: string[] = [];
  if (!baseline) return { base: lines, diff: undefined };
  if (!baseline.found) {
    lines.push(`**Base branch:** no baseline (${plain(baseline.reason)}).`);
    return { base: lines, diff: undefined };
  }
  const diff = diffAgainstBase(baseline.report, report);
  // Several base runs: the findings are compared with each (the verdict); catalogs and counts with the newest.
  const newest = baseline.reports.length > 1 ? `; tool catalogs and counts against the newest, ${plain(baseline.reports[0]!.source)}` : '';
  lines.push(`**Base branch** (${plain(baseline.source)}${newest}):`);
  const recoveryMoved = diff.recovery !== null && JSON.stringify(diff.recovery.base) !== JSON.stringify(diff.recovery.head);
  if (diff.catalog === null) lines.push('- tool catalogs: not compared (the baseline report does not list them).');
  else if (!diff.changed && diff.findingDelta.length === 0 && !recoveryMoved) lines.push('no change in tool catalogs or finding counts.');
  if (diff.catalog) {
    names(lines, 'tools added', diff.catalog.added);
    names(lines, 'tools removed', diff.catalog.removed);
    names(lines, 'schema changed', diff.catalog.schemaChanged);
  }
  for (const d of diff.findingDelta) lines.push(`- \`${safeWord(d.ruleId)}\`: ${d.base} → ${d.head} (${d.head > d.base ? '+' : ''}${d.head - d.base})`);
  if (diff.recovery && recoveryMoved) {
    const { base, head } = diff.recovery;
    const fig = (d: typeof base) => (d.count === 0 ? 'none recovered' : `median ${d.median}, p90 ${d.p90}, max ${d.max}`);
    const never = base.unrecovered + head.unrecovered > 0 ? `; never recovered ${base.unrecovered} → ${head.unrecovered}` : '';
    lines.push(`- recovery attempts (\`slow-recovery\`): ${fig(base)} → ${fig(head)}${never}`);
  }
  return { base: lines, diff };
}

function names(lines: string[], label: string, list: readonly string[]): void {
  if (list.length === 0) return;
  const shown = list.slice(0, MAX_NAMES).map((name) => codeSpan(name)).join(', ');
  lines.push(`- ${label} (${list.length}): ${shown}${list.length > MAX_NAMES ? ` and ${list.length - MAX_NAMES} more` : ''}`);
}

/** Names we build (artifact names, shard ids, rule ids): only [A-Za-z0-9._-]. */
function safeWord(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 100);
}

/** Our own sentences that may quote a name: no markdown-active characters. */
export function plain(text: string): string {
  return text.replace(/[\\`*_[\]<>|#@!()~]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}
