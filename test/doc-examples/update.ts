import { commandText, refreshedShown, shownMismatch } from './example-blocks.js';
import type { CommandRun } from './run-example.js';

/**
 * `UPDATE_DOCS=1`: the doc tests (rule pages, README and docs/) rewrite the output a page
 * shows from what the CLI printed, keeping the lines it leaves out, and still fail once, so
 * that the new pages are read (`git diff README.md docs`) before they are committed.
 */
export const UPDATE_DOCS = process.env['UPDATE_DOCS'] === '1';

/**
 * The page's text with each run command's shown lines brought up to date (refreshedShown),
 * located by line (a command shown twice on a page is two places). `exitShown`: the page
 * shows every exit code but 0 (`# exit N`), so a changed code is rewritten too. A command
 * whose shown output needs a person (a piece no longer printed) is left as it is.
 */
export function refreshedPage(text: string, runs: readonly CommandRun[], exitShown: boolean): string {
  const lines = text.split('\n');
  for (const run of [...runs].sort((a, b) => b.command.at - a.command.at)) {
    const { command } = run;
    const exit = exitShown && (command.exit !== null || run.code !== 0) ? run.code : command.exit;
    if (shownMismatch(command.shown, run.lines) === null && exit === command.exit) continue;
    const fresh = refreshedShown(command.shown, run.lines);
    if (fresh === null) continue;
    // A block inside a list item is indented: its lines keep the indent of its `$ ` line.
    const indent = /^ */.exec(lines[command.at] ?? '')![0];
    const indented = (text: readonly string[]) => text.map((line) => (line === '' ? line : `${indent}${line}`));
    const old = indented(commandText(command, command.shown));
    if (lines.slice(command.at, command.at + old.length).join('\n') !== old.join('\n')) throw new Error(`line ${command.at + 1} is not the command "$ ${command.line}" any more`);
    lines.splice(command.at, old.length, ...indented(commandText({ line: command.line, exit }, fresh)));
  }
  return lines.join('\n');
}
