import { execFileSync } from 'node:child_process';
import { ruleDocsUrl } from '../../../src/report/render/rule-docs.js';

/** Elements our own markdown produces; anything else in the rendered HTML came from trace text. */
const OUR_ELEMENTS = new Set(['h2', 'p', 'strong', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'pre', 'details', 'summary', 'em', 'ul', 'li', 'br', 'a']);

/**
 * A rule id linked to its docs page (the summary's and the CLI markdown's finding lines): our own
 * link, whatever the id, since ruleDocsUrl percent-encodes it into one path segment of our docs folder.
 */
const RULE_DOCS_PREFIX = ruleDocsUrl('x').slice(0, -'x.md'.length);
const ruleDocsLink = (attributes: string) => {
  const href = /^ href="([^"]*)"$/.exec(attributes)?.[1];
  return href !== undefined && href.startsWith(RULE_DOCS_PREFIX) && /^[^/?#&<>]+\.md$/.test(href.slice(RULE_DOCS_PREFIX.length));
};

/** Renders markdown the way GitHub does (cmark-gfm with GitHub's extensions, raw HTML kept so none can hide). */
export function renderGfm(markdown: string): string {
  return execFileSync('cmark-gfm', ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tasklist'], {
    input: markdown,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * What trace text managed to become in the rendered HTML: links, images,
 * elements we never write, mentions and references outside code.
 * `ownLinks` are link targets we wrote ourselves (run and artifact links).
 */
export function markupFromTrace(html: string, ownLinks: readonly string[] = []): string[] {
  const problems: string[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>/g)) {
    const tag = m[1]!.toLowerCase();
    if (!OUR_ELEMENTS.has(tag)) problems.push(`element <${tag}>`);
    if (tag === 'a' && !ownLinks.some((link) => m[2]!.includes(`href="${link}"`)) && !ruleDocsLink(m[2]!)) problems.push(`link ${m[0]}`);
  }
  if (/<!--/.test(html.replace(/<!-- agent-trace-audit[^>]*-->/g, ''))) problems.push('HTML comment');
  // Text outside code: no mention, team mention, issue reference or cross-repo reference.
  const outside = html.replace(/<code>[\s\S]*?<\/code>/g, ' ').replace(/<[^>]+>/g, ' ');
  for (const m of outside.matchAll(/(?:^|[^\w`])(@[A-Za-z0-9][\w-]*(?:\/[\w-]+)?|#\d+|[\w-]+\/[\w.-]+#\d+)/g)) problems.push(`reference ${m[1]}`);
  return problems;
}
