import type { Finding } from '../../model/finding.js';
import { countByRule, type FindingDelta } from '../verdict/delta.js';
import { sanitizeText } from '../../sanitize/text.js';
import { codeSpan } from '../render/markdown-escape.js';
import { ruleDocsUrl } from '../render/rule-docs.js';
import { compareUrgency } from '../urgency.js';
import { locationLink, type FileLinks } from './links.js';

export const SEVERITY_ICON = { error: '🔴', warning: '🟠', note: '🔵' } as const;

/** The comparison with the base branch, or why there is none (our own sentence). */
/**
 * What the findings were compared with: the pull request's base branch (the
 * Action) or a report the user named (`--baseline`, the CLI); it names the lines.
 */
export type ComparedWith = 'base-branch' | 'baseline';

export type Comparison = ({ readonly kind: 'compared'; readonly delta: FindingDelta } | { readonly kind: 'none'; readonly reason: string }) & {
  readonly against?: ComparedWith;
  /** The base branch's name (the Action): flaky findings are `seen in 2 of the last 5 runs on <it>`. */
  readonly baseRef?: string;
};

const WORDS: Readonly<Record<ComparedWith, { readonly none: string; readonly scope: string }>> = {
  'base-branch': { none: 'the base branch', scope: 'in this PR' },
  baseline: { none: 'a baseline', scope: 'against the baseline' },
};

/** Where the rest is: the job summary (run page) and the artifact, or our own words for a document that holds it (the CLI's). */
export interface MoreLinks {
  readonly runUrl: string;
  readonly artifactUrl: string;
  /** Replaces the links: where the rest is in this same document (`the Findings list below`). */
  readonly here?: string;
}

/** A message is shown whole up to this many characters; a longer one is cut at a word boundary. */
export const MESSAGE_MAX = 300;

/** Rule ids that can name a link reference definition (ids from our registry; a stored report may carry others). */
const REFERENCE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * A rule id linked to its docs page. With `refs`, a reference link
 * (`[…][rule-id]`, defined once by ruleReferences) so a long comment spells
 * each docs URL once. An id that is not shaped like ours (a stored report may
 * carry any text) has no docs page: it stays a plain code span.
 */
export function ruleLink(ruleId: string, refs = false): string {
  if (!REFERENCE_ID.test(ruleId)) return codeSpan(ruleId, true);
  if (refs) return `[${codeSpan(ruleId, true)}][${ruleId}]`;
  return `[${codeSpan(ruleId, true)}](${ruleDocsUrl(ruleId)})`;
}

/** The link reference definitions ruleLink(id, true) points at, one per id, in the order given. */
export function ruleReferences(ruleIds: Iterable<string>): string[] {
  const out: string[] = [];
  for (const id of new Set(ruleIds)) if (REFERENCE_ID.test(id)) out.push(`[${id}]: ${ruleDocsUrl(id)}`);
  return out;
}

/**
 * A finding's message on one line, whole up to MESSAGE_MAX characters; a
 * longer one is cut at the last word boundary before it, with `…`.
 */
export function wholeMessage(text: string): string {
  const flat = sanitizeText(text, { maxChars: 4 * MESSAGE_MAX }).replace(/\s+/g, ' ').trim();
  if (flat.length <= MESSAGE_MAX) return flat;
  const head = flat.slice(0, MESSAGE_MAX - 1);
  const space = head.lastIndexOf(' ');
  return `${(space >= MESSAGE_MAX / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** One line per finding: severity, rule (linked), place (linked where it resolves), the whole message (trace text: a code span the renderer wraps). */
export function findingLine(finding: Finding, links: FileLinks, refs = false): string {
  const message = wholeMessage(finding.message);
  return `- ${SEVERITY_ICON[finding.severity]} ${ruleLink(finding.ruleId, refs)} at ${locationLink(finding, links)}: ${codeSpan(message)}`;
}

export function whereTheRestIs(more: MoreLinks): string {
  if (more.here) return more.here;
  const places = [more.runUrl ? `the [job summary](${more.runUrl})` : 'the job summary'];
  if (more.artifactUrl) places.push(`the [report artifact](${more.artifactUrl})`);
  return places.join(' and ');
}

/**
 * "New in this PR" ("against the baseline" for the CLI's) (at most `maxNew` lines, the most urgent first, the rest
 * counted and linked) and "Fixed in this PR" (a count with its rules), or one
 * line saying why nothing was compared, followed by the most urgent of
 * `findings`. `refs`: rule links as references (see ruleLink).
 */
export function deltaLines(comparison: Comparison, links: FileLinks, more: MoreLinks, maxNew: number, refs = false, findings: readonly Finding[] = []): string[] {
  const words = WORDS[comparison.against ?? 'base-branch'];
  if (comparison.kind === 'none') {
    const out = [`_Not compared with ${words.none}: ${comparison.reason}._`];
    if (findings.length === 0) return out;
    // Nothing tells new from old: the most urgent findings of the run instead.
    const urgent = [...findings].sort(compareUrgency);
    out.push('', `**Most urgent:** ${urgent.length > maxNew ? `the ${maxNew} most urgent of ${urgent.length} finding(s):` : `${urgent.length} finding(s):`}`, '');
    for (const f of urgent.slice(0, maxNew)) out.push(findingLine(f, links, refs));
    if (urgent.length > maxNew) out.push(`- … and ${urgent.length - maxNew} more in ${whereTheRestIs(more)}.`);
    return out;
  }
  const { added, fixed } = comparison.delta;
  const out: string[] = [];
  if (added.length === 0) out.push(`**New ${words.scope}:** none.`);
  else {
    out.push(`**New ${words.scope}:** ${added.length} finding(s)${added.length > maxNew ? `, the ${maxNew} most urgent:` : ':'}`, '');
    for (const f of added.slice(0, maxNew)) out.push(findingLine(f, links, refs));
    if (added.length > maxNew) out.push(`- … and ${added.length - maxNew} more in ${whereTheRestIs(more)}.`);
  }
  out.push('');
  if (fixed.length === 0) out.push(`**Fixed ${words.scope}:** none.`);
  else {
    // In the order of the fixed findings: the most severe first, secrets first.
    const rules = [...countByRule(fixed)].map(([id, n]) => `${codeSpan(id)} ×${n}`);
    out.push(`**Fixed ${words.scope}:** ${fixed.length} finding(s): ${rules.join(', ')}.`);
  }
  return out;
}
