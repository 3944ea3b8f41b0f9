/**
 * Markdown safety for text that came from a trace. Such text appears only in
 * code spans (so no mention, reference, link, image or HTML can form) with a
 * fence longer than any backtick run in it; inside a table cell every `|` is
 * escaped so the row cannot break.
 */
export function codeSpan(text: string, inTable = false): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  if (flat === '') return '';
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || (flat.startsWith(' ') && flat.endsWith(' ')) ? ' ' : '';
  const body = inTable ? flat.replace(/\|/g, '\\|') : flat;
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function codeBlock(text: string, info = ''): string {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

/**
 * Text we wrote ourselves (rule summaries, causes) for a table cell: pipes
 * escaped, newlines flattened. Never used for trace text.
 */
export function ownCell(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/\|/g, '\\|');
}
