/**
 * Reads the `## Example` section of a rule page (docs/rules/<id>.md), or a whole page of
 * README.md and docs/ (./page-blocks.ts), into the files it shows and the commands it
 * runs, so that a test can run them and compare what the CLI prints with what the page
 * shows. The notation, as a page writes it:
 *
 * - A file: a line naming it, `` `example.jsonl`: ``, followed by a fenced block holding
 *   its text. The file is the block's lines, each ended with a newline, except:
 *   - a last line `\ No newline at end of file` (as `diff` prints it): no newline after
 *     the line before it;
 *   - `⟨EF BB BF⟩`: these bytes, in hex (a byte order mark, a carriage return `⟨0D⟩`,
 *     bytes that are not UTF-8).
 *   A file named `agent-trace-audit.yml` is the configuration the CLI picks up.
 * - A command: a ```` ```console ```` block; each `$ ` line is a command run in the
 *   folder that holds the files (`agent-trace-audit …` is the CLI, `node <file>` runs a
 *   file of the page), and the lines after it are what it prints (stderr, then stdout).
 *   A line `…` stands for any number of lines left out (the version line, the triage).
 *   A last line `# exit N` is the command's exit code (the shell's `$?`): a page that
 *   promises an exit code shows it so.
 *
 * Any other fenced block in the section is an error: every block there is run.
 */

export interface PageCommand {
  /** The command line as the page writes it, after `$ `. */
  readonly line: string;
  /** Where the `$ ` line is, counted in lines of the text the block was read from (0-based). */
  readonly at: number;
  /** The exit code the page shows (a last line `# exit N`), or null when it shows none. */
  readonly exit: number | null;
  /** The words after `$ `, quotes removed. */
  readonly argv: readonly string[];
  /** The lines the page shows it printing, `…` for lines left out. */
  readonly shown: readonly string[];
}

export interface PageExample {
  readonly files: ReadonlyMap<string, Buffer>;
  readonly commands: readonly PageCommand[];
}

export const FENCE = /^```(\S*)((?: [^\s`]+)*)$/;
export const CAPTION = /^`([^`\s]+)`:$/;
const NO_NEWLINE = '\\ No newline at end of file';
const HEX = /⟨([0-9A-F]{2}(?: [0-9A-F]{2})*)⟩/;
const EXIT = /^# exit (\d+)$/;

/** The example of a page's text; throws with what is wrong when it does not follow the notation. */
export function pageExample(text: string): PageExample {
  const start = text.indexOf('\n## Example\n');
  if (start < 0) throw new Error('the page has no "## Example" section');
  const offset = text.slice(0, start + 1).split('\n').length - 1;
  const lines = text.slice(start + 1).split('\n');
  const end = lines.findIndex((line, i) => i > 0 && line.startsWith('## '));
  const section = end < 0 ? lines : lines.slice(0, end);
  const files = new Map<string, Buffer>();
  const commands: PageCommand[] = [];
  for (let i = 0; i < section.length; i++) {
    const fence = FENCE.exec(section[i]!);
    if (!fence) continue;
    const close = section.indexOf('```', i + 1);
    if (close < 0) throw new Error(`the block at line ${i + 1} of the example is not closed`);
    const body = section.slice(i + 1, close);
    let before = i - 1;
    while (before > 0 && section[before] === '') before--;
    const caption = CAPTION.exec(section[before] ?? '');
    if (fence[2]) throw new Error(`the block at line ${i + 1} of the example has a marker (${fence[2].trim()}): every block of an example is run`);
    if (fence[1] === 'console') commands.push(...commandsOf(body, offset + i + 1));
    else if (caption) {
      if (files.has(caption[1]!)) throw new Error(`two blocks of the file ${caption[1]}`);
      files.set(caption[1]!, fileBytes(body));
    } else throw new Error(`the block at line ${i + 1} of the example is neither a file (a line "\`name\`:" before it) nor a console block`);
    i = close;
  }
  if (commands.length === 0) throw new Error('the example runs no command (a ```console block with "$ agent-trace-audit …")');
  return { files, commands };
}

/** The bytes of a file block (see the notation above). */
export function fileBytes(body: readonly string[]): Buffer {
  const noNewline = body.at(-1) === NO_NEWLINE;
  const text = (noNewline ? body.slice(0, -1) : body).map((line) => `${line}\n`).join('');
  const parts = (noNewline ? text.slice(0, -1) : text).split(HEX);
  // split with one capture group: text, hex, text, hex, … text.
  return Buffer.concat(parts.map((part, i) => (i % 2 === 1 ? Buffer.from(part.replace(/ /g, ''), 'hex') : Buffer.from(part, 'utf8'))));
}

/** The commands of a console block whose first line is line `at` of its text. */
export function commandsOf(body: readonly string[], at: number): PageCommand[] {
  if (!body[0]?.startsWith('$ ')) throw new Error('a console block starts with a "$ " line');
  const out: Array<{ line: string; at: number; exit: number | null; argv: string[]; shown: string[] }> = [];
  body.forEach((line, i) => {
    if (line.startsWith('$ ')) out.push({ line: line.slice(2), at: at + i, exit: null, argv: words(line.slice(2)), shown: [] });
    else out.at(-1)!.shown.push(line);
  });
  for (const command of out) {
    const exit = EXIT.exec(command.shown.at(-1) ?? '');
    if (exit) {
      command.shown.pop();
      command.exit = Number(exit[1]);
    }
  }
  return out;
}

/** A command's lines as a page writes them: `$ line`, the shown lines, `# exit N` when it shows one. */
export function commandText(command: Pick<PageCommand, 'line' | 'exit'>, shown: readonly string[]): string[] {
  return [`$ ${command.line}`, ...shown, ...(command.exit === null ? [] : [`# exit ${command.exit}`])];
}

/** A command line's words: split at spaces, '…' and "…" quote (as a shell does for these simple lines). */
export function words(line: string): string[] {
  const out: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(match[1] ?? match[2] ?? match[3]!);
  return out;
}

/**
 * Whether `actual` (the lines printed) is what `shown` shows: the same lines, where a
 * `…` line stands for any number of lines. Returns null when it is, else what differs.
 */
export function shownMismatch(shown: readonly string[], actual: readonly string[]): string | null {
  const pieces: string[][] = [[]];
  for (const line of shown) {
    if (line === '…') pieces.push([]);
    else pieces.at(-1)!.push(line);
  }
  const at = (piece: readonly string[], i: number) => i >= 0 && i + piece.length <= actual.length && piece.every((line, k) => actual[i + k] === line);
  let pos = 0;
  for (let p = 0; p < pieces.length; p++) {
    const piece = pieces[p]!;
    const first = p === 0;
    const last = p === pieces.length - 1;
    let found = -1;
    if (first && last) found = at(piece, 0) && piece.length === actual.length ? 0 : -1;
    else if (first) found = at(piece, 0) ? 0 : -1;
    else if (last) found = actual.length - piece.length >= pos && at(piece, actual.length - piece.length) ? actual.length - piece.length : -1;
    else for (let i = pos; i <= actual.length - piece.length && found < 0; i++) if (at(piece, i)) found = i;
    if (found < 0) return `the page shows\n${piece.join('\n')}\n${first ? 'at the start' : last ? 'at the end' : 'in order'}, but the command printed\n${actual.join('\n')}`;
    pos = found + piece.length;
  }
  return null;
}

/**
 * The shown lines brought up to date with `actual`, keeping what the page leaves out:
 * the first piece is as many lines from the start; every later piece starts at the next
 * line equal to its first line (`Findings`, a warning) and, when last, runs to the end.
 * Null when a piece's first line is no longer printed: then the page needs a person.
 */
export function refreshedShown(shown: readonly string[], actual: readonly string[]): string[] | null {
  const pieces: string[][] = [[]];
  for (const line of shown) {
    if (line === '…') pieces.push([]);
    else pieces.at(-1)!.push(line);
  }
  const out: string[] = [];
  let pos = 0;
  for (let p = 0; p < pieces.length; p++) {
    const piece = pieces[p]!;
    if (p > 0) out.push('…');
    if (piece.length === 0) continue;
    const last = p === pieces.length - 1;
    const start = p === 0 ? 0 : actual.indexOf(piece[0]!, pos);
    if (start < 0) return null;
    const end = last ? actual.length : Math.min(actual.length, start + piece.length);
    out.push(...actual.slice(start, end));
    pos = end;
  }
  return out;
}
