import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../../helpers.js';
import { corpusFile } from '../../public-corpus.js';
import { CORPUS } from '../../report/pr-run.js';
import { plan, plantedFindings, plantedTrace, type Defect } from './planted-pr.js';

/**
 * A repository whose agent suite already has findings, and a pull request on it
 * (test/github/dist/pr-run-dist.test.ts). Committed on both branches: the 66 public
 * traces of the realistic run under traces/corpus/ and `existing.jsonl`. The
 * base also commits fixed-a and fixed-b with 20 findings each (40), which the
 * head commits fixed; the head adds `new-committed.jsonl` (10 new findings).
 * Written during each run, never committed (out/ is ignored): `out/agent-run.jsonl`,
 * clean on the base, with 6 new findings on the head; and the nightly suite's
 * own trace (out-nightly/), with one new finding on the head.
 */
export const PLANS = {
  existing: plan({ orphan: 2, unknown: 1, traceback: 1 }),
  fixedA: plan({ orphan: 8, ghost: 6, traceback: 3 }),
  fixedB: plan({ unknown: 5, secret: 5, traceback: 5 }),
  newCommitted: plan({ orphan: 4, unknown: 2, secret: 1, ghost: 1, traceback: 1 }),
  newWritten: plan({ orphan: 2, unknown: 1, ghost: 1, traceback: 1 }),
  nightly: plan({ orphan: 1, secret: 1 }),
  /** The nightly suite's trace on the head: one unknown tool more. */
  nightlyHead: plan({ orphan: 1, secret: 1, unknown: 1 }),
} satisfies Record<string, Defect[]>;

export const FILES = {
  existing: 'traces/planted/existing.jsonl',
  fixedA: 'traces/planted/fixed-a.jsonl',
  fixedB: 'traces/planted/fixed-b.jsonl',
  newCommitted: 'traces/planted/new-committed.jsonl',
  newWritten: 'out/agent-run.jsonl',
  nightly: 'out-nightly/nightly.jsonl',
  nightlyHead: 'out-nightly/nightly.jsonl',
} as const;

/** A planted finding, counted from the plan: where it is, which record (call or result) it points at. */
export interface Expected {
  readonly rule: string;
  readonly severity: string;
  readonly callId: string;
  readonly file: string;
}

export function expected(key: keyof typeof PLANS): Expected[] {
  return plantedFindings(PLANS[key]).map(([rule, severity, callId]) => ({ rule, severity, callId, file: FILES[key] }));
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

export interface PullRequestWorkspace {
  readonly root: string;
  readonly baseSha: string;
  /** Checks out the head commit and writes the head run's traces; returns its sha. */
  toHead(): string;
}

/** The base commit checked out, with the traces its runs write. */
export function pullRequestWorkspace(): PullRequestWorkspace {
  const root = tempDir('ata-pr-run-');
  git(root, 'init', '-q', '-b', 'main');
  write(root, '.gitignore', 'out/\nout-nightly/\n');
  for (const file of CORPUS) {
    mkdirSync(dirname(join(root, 'traces/corpus', file)), { recursive: true });
    copyFileSync(corpusFile(file), join(root, 'traces/corpus', file));
  }
  write(root, FILES.existing, plantedTrace('existing', PLANS.existing));
  write(root, FILES.fixedA, plantedTrace('fixed-a', PLANS.fixedA));
  write(root, FILES.fixedB, plantedTrace('fixed-b', PLANS.fixedB));
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'base');
  write(root, FILES.newWritten, plantedTrace('agent-run', PLANS.newWritten, { fixed: true }));
  write(root, FILES.nightly, plantedTrace('nightly', PLANS.nightly));
  return {
    root,
    baseSha: git(root, 'rev-parse', 'HEAD'),
    toHead() {
      git(root, 'checkout', '-qb', 'fix-and-extend');
      write(root, FILES.fixedA, plantedTrace('fixed-a', PLANS.fixedA, { fixed: true }));
      write(root, FILES.fixedB, plantedTrace('fixed-b', PLANS.fixedB, { fixed: true }));
      write(root, FILES.newCommitted, plantedTrace('new-committed', PLANS.newCommitted));
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'fix two suites, add one');
      write(root, FILES.newWritten, plantedTrace('agent-run', PLANS.newWritten));
      write(root, FILES.nightly, plantedTrace('nightly', PLANS.nightlyHead));
      return git(root, 'rev-parse', 'HEAD');
    },
  };
}
