import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/audit/rules/index.js';
import { fileBytes, pageExample, refreshedShown, shownMismatch, words } from '../doc-examples/example-blocks.js';
import { runExample } from '../doc-examples/run-example.js';
import { refreshedPage, UPDATE_DOCS } from '../doc-examples/update.js';

/**
 * Every rule page's `## Example` is run, as typescript-eslint tests its docs: its files
 * are written into a folder, its commands run there through the real bundled CLI (as
 * README.md's and docs/'s commands are: test/doc-examples/doc-pages.test.ts), and each
 * prints exactly the lines the page shows (findings, messages, locations), `…` standing
 * for lines left out. The notation is described in ../doc-examples/example-blocks.ts.
 *
 * When the CLI's output changed on purpose (a message, the verdict line), run this file
 * with UPDATE_DOCS=1 (after npm run build): each page's shown output is rewritten from
 * what the CLI prints, keeping the lines it leaves out, and the test still fails once, so
 * that the new pages are read (git diff docs/rules) before they are committed.
 */
const PAGES = readdirSync('docs/rules')
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((page) => ({ id: page.replace(/\.md$/, ''), text: readFileSync(`docs/rules/${page}`, 'utf8') }));

describe('rule pages: the example prints what the page shows', () => {
  it('there is a page for every rule, and every page is run below (none is left out)', () => {
    expect(PAGES.map((p) => p.id)).toEqual(RULES.map((r) => r.meta.id).sort());
  });

  for (const { id, text } of PAGES) {
    it(id, async () => {
      const example = pageExample(text);
      const runs = runExample(example);
      const page = UPDATE_DOCS ? refreshedPage(text, runs, false) : text;
      if (page !== text) writeFileSync(`docs/rules/${id}.md`, page);
      for (const run of runs) {
        expect(shownMismatch(run.command.shown, run.lines), `$ ${run.command.line}`).toBeNull();
        // A usage or input error (exit 2) is never an example of a rule.
        expect([run.command.line, run.code]).not.toEqual([run.command.line, 2]);
      }
      // The page's own rule is among the lines it shows as printed.
      const shown = runs.flatMap((run) => run.command.shown);
      expect(shown.some((line) => new RegExp(`(^|[\\s:])${id}([\\s:]|$)`).test(line)), `no line the page shows names ${id}`).toBe(true);
    }, 60_000);
  }
});

describe('the notation of the examples', () => {
  it('a file is its lines with newlines; "\\ No newline at end of file" drops the last; ⟨hex⟩ is bytes', () => {
    expect(fileBytes(['{"a":1}', '{"b":2}'])).toEqual(Buffer.from('{"a":1}\n{"b":2}\n'));
    expect(fileBytes(['{"a":1}', '{"b":2}', '\\ No newline at end of file'])).toEqual(Buffer.from('{"a":1}\n{"b":2}'));
    expect(fileBytes(['⟨EF BB BF⟩{"a":1}⟨0D⟩'])).toEqual(Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"a":1}'), 0x0d, 0x0a]));
    expect(fileBytes(['a⟨FF⟩b'])).toEqual(Buffer.from([0x61, 0xff, 0x62, 0x0a]));
  });

  it('command lines split at spaces, quotes kept together', () => {
    expect(words(`agent-trace-audit audit "**/*.json" --fail-on 'note'`)).toEqual(['agent-trace-audit', 'audit', '**/*.json', '--fail-on', 'note']);
  });

  it('shown lines match whole lines in order; … stands for any lines; without … the ends are fixed', () => {
    const printed = ['a', 'b', 'c', 'd'];
    expect(shownMismatch(['a', 'b', 'c', 'd'], printed)).toBeNull();
    expect(shownMismatch(['a', '…', 'd'], printed)).toBeNull();
    expect(shownMismatch(['…', 'c', 'd'], printed)).toBeNull();
    expect(shownMismatch(['a', '…', 'c', '…'], printed)).toBeNull();
    expect(shownMismatch(['a', '…'], printed)).toBeNull();
    expect(shownMismatch(['…'], printed)).toBeNull();
    expect(shownMismatch(['a', 'b', 'c'], printed)).not.toBeNull();
    expect(shownMismatch(['…', 'c'], printed)).not.toBeNull();
    expect(shownMismatch(['b', '…'], printed)).not.toBeNull();
    expect(shownMismatch(['a', '…', 'c', 'b', '…'], printed)).not.toBeNull();
    expect(shownMismatch(['a', '…', 'd', '…', 'd'], printed)).not.toBeNull();
    expect(shownMismatch([], [])).toBeNull();
    expect(shownMismatch([], ['a'])).not.toBeNull();
  });

  it('a page whose example has no command, or a block that is neither a file nor a command, is refused', () => {
    const page = (example: string) => `# x\n\n## Example\n\n${example}\n`;
    expect(() => pageExample(page('`t.jsonl`:\n\n```jsonl\n{}\n```'))).toThrow(/runs no command/);
    expect(() => pageExample(page('```jsonl\n{}\n```\n\n```console\n$ agent-trace-audit audit t.jsonl\n```'))).toThrow(/neither a file/);
    expect(() => pageExample('# x\n')).toThrow(/no "## Example"/);
    const ok = pageExample(page('`t.jsonl`:\n```jsonl\n{}\n```\n\n```console\n$ agent-trace-audit audit t.jsonl\n…\nx\n```\n\n## Next'));
    expect([...ok.files.keys()]).toEqual(['t.jsonl']);
    expect(ok.commands).toEqual([{ line: 'agent-trace-audit audit t.jsonl', at: 10, exit: null, argv: ['agent-trace-audit', 'audit', 't.jsonl'], shown: ['…', 'x'] }]);
  });

  it('UPDATE_DOCS keeps what a page leaves out: the first lines, then each piece from its first line on', () => {
    const printed = ['❌ 2 errors', 'agent-trace-audit 9.9.9', 'Findings', 'HEAD', 'row 1', 'row 2'];
    expect(refreshedShown(['❌ 1 error', '…', 'Findings', 'HEAD', 'row 1'], printed)).toEqual(['❌ 2 errors', '…', 'Findings', 'HEAD', 'row 1', 'row 2']);
    expect(refreshedShown(['…', 'agent-trace-audit 9.9.9', '…'], printed)).toEqual(['…', 'agent-trace-audit 9.9.9', '…']);
    expect(refreshedShown(['x', '…', 'Triage', 'row'], printed)).toBeNull();
  });
});
