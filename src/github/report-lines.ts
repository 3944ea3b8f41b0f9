import { codeSpan } from '../report/markdown-escape.js';
import type { Report } from '../report/schema.js';
import type { Baseline } from './baseline.js';
import { diffAgainstBaseline, type BaselineDiff } from './catalog-diff.js';

export interface Links {
  readonly runUrl: string;
  readonly artifactUrl: string;
  readonly artifactName: string;
  readonly sealDigest: string;
  readonly shard: string;
}

/**
 * The lines we write ourselves above the findings: run and artifact links,
 * seal digest, and the comparison with the base branch. Only our own text
 * and hex digests; names from data go through `safeWord`.
 */
export function headLines(report: Report, links: Links, baseline: Baseline | undefined): { lines: string[]; diff: BaselineDiff | undefined } {
  const lines: string[] = [];
  const run = links.runUrl ? `[workflow run](${links.runUrl})` : 'this run';
  const artifact = links.artifactUrl ? `, artifact [${safeWord(links.artifactName)}](${links.artifactUrl})` : '';
  lines.push(`Details: ${run}${artifact}.${links.shard ? ` Shard \`${safeWord(links.shard)}\`.` : ''}`);
  if (links.sealDigest) lines.push(`Seal digest: \`${links.sealDigest}\``);
  if (report.artifacts?.length) lines.push(`Artifacts read: ${report.artifacts.map((a) => `\`${safeWord(a.name)}\` (${a.files} file(s))`).join(', ')}.`);
  if (!baseline) return { lines, diff: undefined };
  if (!baseline.found) {
    lines.push('', `**Base branch:** no baseline (${plain(baseline.reason)}).`);
    return { lines, diff: undefined };
  }
  const diff = diffAgainstBaseline(baseline.report, report);
  lines.push('', `**Base branch** (${plain(baseline.source)}):`);
  if (!diff.changed && diff.findingDelta.length === 0) lines.push('no change in tool catalogs or finding counts.');
  for (const c of diff.catalogsAdded) lines.push(`- catalog added: ${codeSpan(c)}`);
  for (const c of diff.catalogsRemoved) lines.push(`- catalog removed: ${codeSpan(c)}`);
  for (const d of diff.findingDelta) lines.push(`- \`${safeWord(d.ruleId)}\`: ${d.base} → ${d.head} (${d.head > d.base ? '+' : ''}${d.head - d.base})`);
  return { lines, diff };
}

/** Names we build (artifact names, shard ids, rule ids): only [A-Za-z0-9._-]. */
function safeWord(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 100);
}

/** Our own sentences that may quote a name: no markdown-active characters. */
function plain(text: string): string {
  return text.replace(/[\\`*_[\]<>|#@!()~]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}
