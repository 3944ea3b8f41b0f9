import { CAPTION, commandsOf, fileBytes, FENCE, type PageCommand } from './example-blocks.js';

/**
 * Reads a whole page of README.md or docs/ into the steps a reader follows, in order: the
 * files it shows (a `` `name`: `` line before a block, as in the rule pages' examples:
 * ./example-blocks.ts), the commands it runs (```` ```console ```` blocks) and the shell
 * blocks it does not run, each with an explicit marker on its fence line:
 *
 * - ```` ```console ````: run in the page's folder (a fresh temporary folder holding the
 *   files the page showed so far; a later block of the same name replaces the file).
 * - ```` ```console checkout ````: run in the checkout of this repository (commands that
 *   only read it: `npm start`, `python3 docs/verify_sealed.py test/fixtures/…`).
 * - ```` ```sh synopsis ````: usage lines, `agent-trace-audit <command> … --flag …`; every
 *   command and flag they name is checked against the CLI's command table.
 * - ```` ```sh needs-github ```` (or `console needs-github`): needs GitHub (`gh run download`,
 *   an attestation): not run, and counted by name.
 * - ```` ```sh dev-setup ````: sets up or tests this repository itself (`npm ci`, `npm test`,
 *   a clone of other projects): not run, and counted by name.
 * - ```` ```console corpus ````: runs on public trace files of the corpus (never committed,
 *   so not in the page): not run here; the test that runs it on those files is named in
 *   doc-pages.test.ts beside it, and it is counted by name.
 *
 * A shell block (`sh`, `bash`, `shell`, `console`) that is neither run nor marked, and a
 * block with no language at all, are errors: say what a block holds (`text` for output or
 * messages shown without their command).
 */
export type PageStep =
  | { readonly kind: 'file'; readonly name: string; readonly bytes: Buffer }
  | { readonly kind: 'run'; readonly where: 'folder' | 'checkout'; readonly commands: readonly PageCommand[] }
  | { readonly kind: 'synopsis'; readonly line: number; readonly lines: readonly string[] }
  | { readonly kind: 'skipped'; readonly marker: SkipMarker; readonly line: number; readonly lines: readonly string[] };

export type SkipMarker = 'needs-github' | 'dev-setup' | 'corpus';
const SKIP: ReadonlySet<string> = new Set<SkipMarker>(['needs-github', 'dev-setup', 'corpus']);
const SHELL: ReadonlySet<string> = new Set(['console', 'sh', 'bash', 'shell']);

export function pageSteps(text: string): PageStep[] {
  const lines = text.split('\n');
  const steps: PageStep[] = [];
  for (let i = 0; i < lines.length; i++) {
    const indent = /^ */.exec(lines[i]!)![0];
    const fence = FENCE.exec(lines[i]!.slice(indent.length));
    if (!fence) continue;
    const close = lines.findIndex((line, k) => k > i && line === `${indent}\`\`\``);
    if (close < 0) throw new Error(`the block at line ${i + 1} is not closed`);
    const body = lines.slice(i + 1, close).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    steps.push(...stepOf(fence[1]!, fence[2]!.trim(), body, i, captionBefore(lines, i)));
    i = close;
  }
  return steps;
}

function stepOf(language: string, marker: string, body: readonly string[], i: number, caption: string | null): PageStep[] {
  const where = `the block at line ${i + 1}`;
  if (language === '') throw new Error(`${where} has no language: say what it holds (console, sh synopsis, text …)`);
  if (SKIP.has(marker) && SHELL.has(language)) return [{ kind: 'skipped', marker: marker as SkipMarker, line: i + 1, lines: body }];
  if (language === 'console' && (marker === '' || marker === 'checkout')) return [{ kind: 'run', where: marker === '' ? 'folder' : 'checkout', commands: commandsOf(body, i + 1) }];
  if (language !== 'console' && SHELL.has(language) && marker === 'synopsis') return [{ kind: 'synopsis', line: i + 1, lines: body }];
  if (SHELL.has(language)) throw new Error(`${where} is a ${language} block neither run (\`\`\`console) nor marked (synopsis, needs-github, dev-setup, corpus): ${marker || 'no marker'}`);
  if (marker !== '') throw new Error(`${where} has an unknown marker: ${marker}`);
  return caption === null ? [] : [{ kind: 'file', name: caption, bytes: fileBytes(body) }];
}

/** The file name of a `` `name`: `` line before the block (blank lines between allowed). */
function captionBefore(lines: readonly string[], i: number): string | null {
  let before = i - 1;
  while (before > 0 && lines[before] === '') before--;
  return CAPTION.exec(lines[before]?.trim() ?? '')?.[1] ?? null;
}
