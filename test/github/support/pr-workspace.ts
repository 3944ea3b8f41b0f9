import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../../helpers.js';
import { corpusFile } from '../../public-corpus.js';
import { stamp } from '../../audit/findings/rerun-suite.js';
import { CORPUS } from '../../report/pr-run.js';
import { plan, plantedFindings, plantedTrace, type Defect } from './planted-pr.js';
import { plantedSession, SESSION_FINDINGS_OF, type SessionDefect } from './planted-session.js';

/**
 * A repository whose agent suite already has findings, and a pull request on it
 * (test/github/dist/pr-run-dist.test.ts). Committed on both branches: the 66 public
 * traces of the realistic run under traces/corpus/ and `existing.jsonl`; the head adds
 * `new-committed.jsonl` (10 new findings). Written afresh by every run of the job, as a
 * live agent suite writes its traces (out/ and out-nightly/ are ignored, never committed):
 * the suite's three scenarios `fixed-a`, `fixed-b` and `agent-run` in one native JSONL file
 * `out/suite-<time>.jsonl`, each run with a UUID run id, its `run_name`, random call ids,
 * the scenarios in another order each run; and two scenarios as Claude Code sessions
 * `out/sessions/<session id>.jsonl` with fresh message and `toolu_` ids (planted-session.ts).
 * On the base, fixed-a and fixed-b have 20 findings each and the review session 8 (48), agent-run
 * and the triage session none; the head fixes the three, agent-run has 6 new findings and triage 3. The
 * nightly suite writes `out-nightly/nightly-<time>.jsonl` the same way, with one new finding
 * on the head.
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
  /** Two scenarios written as Claude Code sessions: `review` has 8 findings on the base and none on the head, `triage` none on the base and 3 on the head. */
  review: plan({ orphan: 2, ghost: 1, traceback: 1 }),
  triage: plan({ orphan: 1, secret: 1 }),
} satisfies Record<string, Defect[]>;

/** The committed files; the scenarios of the written suite have no fixed file (a run names its file). */
export const FILES = {
  existing: 'traces/planted/existing.jsonl',
  newCommitted: 'traces/planted/new-committed.jsonl',
} as const;

/** A planted finding, counted from the plan: where it is, which record (call or result) it points at. */
export interface Expected {
  readonly rule: string;
  readonly severity: string;
  readonly callId: string;
  readonly file: string;
}

/** The planted findings of `key`, in `file` (a committed file's own path by default). */
export function expected(key: keyof typeof PLANS, file: string = FILES[key as keyof typeof FILES] ?? ''): Expected[] {
  return plantedFindings(PLANS[key], key in SESSIONS ? SESSION_FINDINGS_OF : undefined).map(([rule, severity, callId]) => ({ rule, severity, callId, file }));
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A file the suite wrote: its path, its text, the plan's call ids → the ids written (one scenario's). */
export interface Written {
  readonly file: string;
  readonly text: string;
  readonly ids: ReadonlyMap<string, string>;
}

/** What one run of the job wrote: the native file, its text, per scenario the plan's call ids → the ids written; the sessions. */
export interface SuiteWrite {
  readonly file: string;
  readonly text: string;
  readonly ids: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly sessions: { readonly review: Written; readonly triage: Written };
  /** The scenarios in the order this run wrote them. */
  readonly order: readonly string[];
  readonly nightly: { readonly file: string; readonly text: string };
}

export interface PullRequestWorkspace {
  readonly root: string;
  readonly baseSha: string;
  /** Checks out the head commit; returns its sha. */
  toHead(): string;
  /** One run of the suites on the commit checked out: out/ and out-nightly/ emptied and written afresh. */
  runSuite(): SuiteWrite;
}

/** The suite's scenarios: name, plan, fixed on the base and on the head. */
const SCENARIOS = [
  ['fixed-a', 'fixedA', false, true],
  ['fixed-b', 'fixedB', false, true],
  ['agent-run', 'newWritten', true, false],
] as const;

/** The scenarios written as Claude Code sessions: plan, first user message (their scenario), fixed on the base and on the head. */
const SESSIONS = {
  review: ['Review the open pull requests of agent-app and fix the failing checks.', false, true],
  triage: ['Triage the new issues of agent-app and label them.', true, false],
} as const;

/** The six orders of the three scenarios: run k of the workspace writes them in order k mod 6, so no two runs in a row agree. */
const ORDERS = [[0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0], [0, 2, 1], [1, 0, 2]] as const;

function suite(root: string, head: boolean, k: number): SuiteWrite {
  rmSync(join(root, 'out'), { recursive: true, force: true });
  rmSync(join(root, 'out-nightly'), { recursive: true, force: true });
  const ids = new Map<string, Map<string, string>>();
  const order = ORDERS[k % ORDERS.length]!.map((i) => SCENARIOS[i]);
  const text = order.map(([name, key, baseFixed, headFixed]) => {
    const fresh = new Map<string, string>();
    ids.set(name, fresh);
    return plantedTrace(name, PLANS[key], { fixed: head ? headFixed : baseFixed, fresh });
  }).join('');
  const file = `out/suite-${stamp().compact}.jsonl`;
  write(root, file, text);
  const session = (key: keyof typeof SESSIONS): Written => {
    const [prompt, baseFixed, headFixed] = SESSIONS[key];
    const ids = new Map<string, string>();
    const { file, text } = plantedSession(prompt, PLANS[key] as SessionDefect[], { fixed: head ? headFixed : baseFixed, ids });
    write(root, `out/${file}`, text);
    return { file: `out/${file}`, text, ids };
  };
  const sessions = { review: session('review'), triage: session('triage') };
  const nightly = { file: `out-nightly/nightly-${stamp().compact}.jsonl`, text: plantedTrace('nightly', head ? PLANS.nightlyHead : PLANS.nightly, { fresh: new Map() }) };
  write(root, nightly.file, nightly.text);
  return { file, text, ids, sessions, order: order.map(([name]) => name), nightly };
}

/** The base commit checked out. */
export function pullRequestWorkspace(): PullRequestWorkspace {
  const root = tempDir('ata-pr-run-');
  git(root, 'init', '-q', '-b', 'main');
  write(root, '.gitignore', 'out/\nout-nightly/\n');
  for (const file of CORPUS) {
    mkdirSync(dirname(join(root, 'traces/corpus', file)), { recursive: true });
    copyFileSync(corpusFile(file), join(root, 'traces/corpus', file));
  }
  write(root, FILES.existing, plantedTrace('existing', PLANS.existing));
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'base');
  let head = false;
  let runs = 0;
  return {
    root,
    baseSha: git(root, 'rev-parse', 'HEAD'),
    toHead() {
      git(root, 'checkout', '-qb', 'fix-and-extend');
      write(root, FILES.newCommitted, plantedTrace('new-committed', PLANS.newCommitted));
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'fix two scenarios, add a suite trace');
      head = true;
      return git(root, 'rev-parse', 'HEAD');
    },
    runSuite: () => suite(root, head, runs++),
  };
}
