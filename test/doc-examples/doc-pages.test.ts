import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allFlags } from '../../src/cli/command.js';
import { commandSpecs } from '../../src/cli/main.js';
import { shownMismatch } from './example-blocks.js';
import { pageSteps, type PageStep } from './page-blocks.js';
import { exampleFolder, shellIn, type CommandRun } from './run-example.js';
import { refreshedPage, UPDATE_DOCS } from './update.js';
import { tempDir } from '../helpers.js';

/**
 * Every shell command of README.md, docs/*.md and docs/formats/*.md is run, as the rule
 * pages' examples are (test/audit/rule-doc-examples.test.ts): a page is followed from top
 * to bottom in a fresh folder, its files (a `` `name`: `` line before a block) written as
 * they come, each ```console block's commands run through a shell against the real bundle
 * (dist/cli.js: `npm run build` first), and each must print what the page shows (`…` for
 * lines left out) and exit with the code it shows (`# exit N`; none shown: 0). A shell block
 * that is not run carries a marker (./page-blocks.ts); those are counted below by name.
 *
 * When the CLI's output changed on purpose: `npm run build`, then run this file (and the
 * rule pages') with UPDATE_DOCS=1; the pages' shown output and exit codes are rewritten,
 * the test fails once, and `git diff README.md docs` is read before committing.
 */
const PAGES = [
  'README.md',
  ...readdirSync('docs').filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`),
  ...readdirSync('docs/formats').filter((f) => f.endsWith('.md')).sort().map((f) => `docs/formats/${f}`),
];

/** The shell blocks not run, by page, marker and first line: a new one is a reviewed change here. */
const NOT_RUN = [
  'README.md: dev-setup: npm ci && npm start',
  'docs/sealing.md: needs-github: gh run download 123456789 -n agent-trace-audit -D agent-trace-audit',
  'docs/sealing.md: needs-github: gh attestation verify agent-trace-audit/seal-manifest.json --repo owner/repo',
  'docs/wild-check.md: dev-setup: npm run build',
  // Run on the public corpus file by test/ingest/custom/worked-mappings.test.ts.
  'docs/formats/custom.md: corpus: agent-trace-audit formats try results.jsonl --config agent-trace-audit.yml --input-format verifiers-eval',
];

/** A page's steps; what is wrong with its blocks, with the page's name. */
function stepsOf(page: string): PageStep[] {
  try {
    return pageSteps(readFileSync(page, 'utf8'));
  } catch (error) {
    throw new Error(`${page}: ${(error as Error).message}`);
  }
}

describe('README.md and docs/: every shell command prints what the page shows', () => {
  for (const page of PAGES) {
    it(page, () => {
      const text = readFileSync(page, 'utf8');
      const runs = followPage(stepsOf(page));
      const fresh = UPDATE_DOCS ? refreshedPage(text, runs, true) : text;
      if (fresh !== text) writeFileSync(page, fresh);
      for (const run of runs) {
        const shown = `$ ${run.command.line} (line ${run.command.at + 1})`;
        expect(shownMismatch(run.command.shown, run.lines), shown).toBeNull();
        expect(run.code, `${shown}: exit code (the page shows it as a last line "# exit N"; none: 0)\n${run.lines.join('\n')}`).toBe(run.command.exit ?? 0);
      }
    }, 300_000);
  }
});

describe('README.md and docs/: the blocks that are not run', () => {
  it('every shell block is run or marked; the marked ones are these', () => {
    const marked = PAGES.flatMap((page) => stepsOf(page).flatMap((step) => (step.kind === 'skipped' ? [`${page}: ${step.marker}: ${step.lines[0]!.replace(/^\$ /, '').replace(/\s+#.*$/, '')}`] : [])));
    expect(marked).toEqual(NOT_RUN);
  });

  it('every usage line names a command and flags it has', async () => {
    const specs = new Map((await commandSpecs()).map((spec) => [spec.name, new Set(allFlags(spec).map((flag) => `--${flag.name}`))]));
    const synopses = PAGES.flatMap(stepsOf).filter((step) => step.kind === 'synopsis');
    expect(synopses.length).toBeGreaterThan(0);
    for (const step of synopses) {
      let flags: ReadonlySet<string> | undefined;
      for (const line of step.lines) {
        const command = /^agent-trace-audit (\S+)/.exec(line);
        if (command) flags = command[1] === '<command>' ? new Set(['--help']) : specs.get(command[1]!);
        expect(flags, `${line}: no such command`).toBeDefined();
        const own = line.split(' -- ')[0]!.replace(/\s+#.*$/, '');
        for (const flag of own.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []) expect([...flags!], `${line}: ${flag}`).toContain(flag);
      }
    }
  });
});

/** Follows a page: files written as they come, commands run in order (in the page's folder, or the checkout). */
function followPage(steps: readonly PageStep[]): CommandRun[] {
  const folder = tempDir('ata-doc-page-');
  const inFolder = shellIn(folder);
  const inCheckout = shellIn(process.cwd());
  const runs: CommandRun[] = [];
  for (const step of steps) {
    if (step.kind === 'file') exampleFolder(new Map([[step.name, step.bytes]]), folder);
    if (step.kind === 'run') runs.push(...step.commands.map(step.where === 'folder' ? inFolder : inCheckout));
  }
  return runs;
}
