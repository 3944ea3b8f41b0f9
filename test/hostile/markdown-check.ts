import { execFileSync } from 'node:child_process';

/** Elements our own markdown produces; anything else in the rendered HTML came from trace text. */
const OUR_ELEMENTS = new Set(['h2', 'p', 'strong', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'pre', 'details', 'summary', 'em', 'ul', 'li', 'br', 'a']);

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
    if (tag === 'a' && !ownLinks.some((link) => m[2]!.includes(`href="${link}"`))) problems.push(`link ${m[0]}`);
  }
  if (/<!--/.test(html.replace(/<!-- agent-trace-audit[^>]*-->/g, ''))) problems.push('HTML comment');
  // Text outside code: no mention, team mention, issue reference or cross-repo reference.
  const outside = html.replace(/<code>[\s\S]*?<\/code>/g, ' ').replace(/<[^>]+>/g, ' ');
  for (const m of outside.matchAll(/(?:^|[^\w`])(@[A-Za-z0-9][\w-]*(?:\/[\w-]+)?|#\d+|[\w-]+\/[\w.-]+#\d+)/g)) problems.push(`reference ${m[1]}`);
  return problems;
}
