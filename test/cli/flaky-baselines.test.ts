import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { tempDir } from '../helpers.js';
import { countSuite, suiteTrace, type SuiteRun } from '../report/suite-runs.js';
import { runBundle } from './run-cli.js';

// The last five runs of an agent suite on main, through the bundled CLI (dist/cli.js): the
// `search` scenario storms in two of them (runs 2 and 4), as a non-deterministic agent does:
// one retry-storm warning and three redundant-call notes (its three repeats), four findings.
// A pull request whose run storms too passes `gate: new` at `fail-on: warning` and names the
// storm flaky; one that also brings a brand-new orphan fails on it. `--baseline` five times and
// `--baseline <folder>` are one comparison.
const STORMS = [false, true, false, true, false];
const FIVE = STORMS.map((_, i) => `base/run-${i + 1}.json`);

let root: string;
const audit = (args: string[], cwd = root) => runBundle(['audit', 'traces', '--jobs', '1', ...args], cwd);

function writeSuite(folder: string, run: SuiteRun): string {
  const text = suiteTrace(run);
  mkdirSync(join(folder, 'traces'), { recursive: true });
  writeFileSync(join(folder, 'traces/suite.jsonl'), text);
  return text;
}

type Json = { verdict: Record<string, unknown>; comparison: { baselines: Array<Record<string, unknown>>; counts: Record<string, number>; fixed: unknown[] }; findings: Array<{ ruleId: string; baselineState?: string; baselineSeen?: unknown }>; rulesRun: Array<{ id: string; version: number }>; rules: Array<{ id: string; version?: number }>; tool: { version: string } };
const json = (text: string) => JSON.parse(text) as Json;

beforeAll(() => {
  root = tempDir('ata-flaky-');
  mkdirSync(join(root, 'base'));
  const counted = STORMS.map((storm, i) => {
    const text = writeSuite(root, { storm });
    expect(audit(['--format', 'json', '-o', FIVE[i]!, '--fail-on', 'never']).code).toBe(0);
    const { storms, repeats } = countSuite(text);
    return [storms, repeats];
  });
  // python3 counts the storms (and their repeats) in the five base traces: two of five.
  expect(counted).toEqual([[0, 0], [1, 3], [0, 0], [1, 3], [0, 0]]);
}, 120_000);

describe('five base reports, a retry storm in two of them (dist/cli.js)', () => {
  it('the head with the storm passes gate new at fail-on warning and names it flaky: seen in 2 of the 5 baseline reports', () => {
    expect(countSuite(writeSuite(root, { storm: true }))).toEqual({ storms: 1, repeats: 3, orphans: 0 });
    const five = audit(['--fail-on', 'warning', ...FIVE.flatMap((f) => ['--baseline', f])]);
    expect([five.code, five.stderr]).toEqual([0, '']);
    const lines = five.stdout.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      '✅ no new findings (4 flaky findings)',
      'compared with 5 baseline reports: 0 new, 4 flaky, 0 not compared, 0 fixed',
      '  flaky: retry-storm at traces/suite.jsonl:22: seen in 2 of the 5 baseline reports',
      ...[24, 26, 28].map((line) => `  flaky: redundant-call at traces/suite.jsonl:${line}: seen in 2 of the 5 baseline reports`),
    ]);
    // A folder of the same five reports: the same bytes.
    expect(audit(['--fail-on', 'warning', '--baseline', 'base'])).toEqual(five);
    // Markdown (the job summary's renderer): the flaky finding listed collapsed, with where it was seen.
    const md = audit(['--fail-on', 'warning', '--format', 'markdown', '--baseline', 'base']);
    expect(md.code).toBe(0);
    expect(md.stdout.split('\n')[0]).toBe('## agent-trace-audit: ✅ no new findings (4 flaky findings)');
    expect(md.stdout).toContain('<details><summary>Flaky: 4 findings seen in some but not all of the 5 baseline reports (never failing the gate)</summary>');
    expect(md.stdout).toMatch(/- 🟠 \[`retry-storm`\]\([^)]+\) at `traces\/suite\.jsonl:22`: `tool 'search_docs' was called 4 times with identical arguments in this run \(lines 22, 24, 26, 28\)` \(seen in 2 of the 5 baseline reports\)/);
    expect(audit(['--fail-on', 'warning', '--format', 'markdown', ...FIVE.flatMap((f) => ['--baseline', f])]).stdout).toBe(md.stdout);
    // gate all fails on the same warning: the storm is a finding, only its comparison is apart.
    expect(audit(['--fail-on', 'warning', '--gate', 'all', '--baseline', 'base']).code).toBe(1);
  });

  it('a head with a brand-new orphan fails on it, the storm still flaky', () => {
    expect(countSuite(writeSuite(root, { storm: true, orphan: true }))).toEqual({ storms: 1, repeats: 3, orphans: 1 });
    const out = audit(['--fail-on', 'warning', '--baseline', 'base']);
    expect(out.code).toBe(1);
    expect(out.stdout.split('\n').slice(0, 2)).toEqual(['❌ 1 new error (1 error, 1 warning in all; 4 flaky findings)', 'compared with 5 baseline reports: 1 new, 4 flaky, 0 not compared, 0 fixed']);
    expect(audit(['--fail-on', 'warning', ...FIVE.flatMap((f) => ['--baseline', f])]).stdout).toBe(out.stdout);
  });

  it('--format json holds the verdict, each finding\'s baselineState and the base reports used; merge keeps them', () => {
    writeSuite(root, { storm: true });
    const out = audit(['--fail-on', 'warning', '--format', 'json', '--baseline', 'base', '-o', 'head.json']);
    expect([out.code, out.stderr]).toEqual([0, '✅ no new findings (4 flaky findings)\n']);
    const text = readFileSync(join(root, 'head.json'), 'utf8');
    reportSchema.parse(JSON.parse(text));
    const head = json(text);
    expect(Object.keys(head).slice(0, 5)).toEqual(['schemaVersion', 'tool', 'summary', 'verdict', 'comparison']);
    expect(head.verdict).toEqual({
      state: 'passed',
      headline: '✅ no new findings (4 flaky findings)',
      failed: false,
      gate: 'new',
      failOn: 'warning',
      coverage: { files: 1, read: 1, unread: [], partlyRead: 0, notTraces: [], records: 29, toolCalls: 13, toolResults: 13, skipped: 0 },
    });
    expect(head.comparison).toEqual({
      baselines: FIVE.map((source) => ({ source, runId: null, version: head.tool.version, time: null })),
      counts: { new: 0, unchanged: 0, flaky: 4, notCompared: 0, fixed: 0 },
      fixed: [],
    });
    expect(head.findings.map((f) => [f.ruleId, f.baselineState, f.baselineSeen])).toEqual([
      ['retry-storm', 'flaky', { runs: 2, of: 5 }],
      ...Array(3).fill(['redundant-call', 'flaky', { runs: 2, of: 5 }]),
    ]);
    // Every rule the audit ran, with its version; the rules with findings carry theirs.
    expect(head.rulesRun.find((r) => r.id === 'retry-storm')).toEqual({ id: 'retry-storm', version: 2 });
    expect(head.rules.map((r) => [r.id, r.version])).toEqual([['retry-storm', 2], ['redundant-call', 2]]);
    // merge keeps the comparison and judges on it: gate new, the storm flaky, exit 0 at warning.
    const merged = runBundle(['merge', 'head.json', '--fail-on', 'warning'], root);
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    const back = json(merged.stdout);
    expect(back.findings).toEqual(head.findings);
    expect(back.comparison).toEqual(head.comparison);
    expect(back.verdict).toEqual(head.verdict);
    // Without a comparison the JSON still states its verdict, and no finding has a baselineState.
    const alone = json(audit(['--fail-on', 'warning', '--format', 'json']).stdout);
    expect([alone.verdict['state'], alone.verdict['gate'], alone.verdict['headline'], 'comparison' in alone]).toEqual(['failed', 'all', '❌ 1 warning', false]);
    expect(alone.findings.map((f) => f.baselineState)).toEqual(Array(4).fill(undefined));
  });
});

describe('version skew: rules the base reports did not run are not compared (dist/cli.js)', () => {
  /** The five base reports as an older release wrote them: `edit` each. */
  function olderBases(folder: string, edit: (report: Record<string, unknown>) => Record<string, unknown>): void {
    mkdirSync(join(root, folder), { recursive: true });
    FIVE.forEach((file, i) => writeFileSync(join(root, folder, `run-${i + 1}.json`), JSON.stringify(edit(JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>), null, 2)));
  }

  it('a base that did not run retry-storm (a rule new since its 0.0.9): the storm is not compared, neither new nor flaky', () => {
    const notStorm = (list: unknown) => (list as Array<{ id?: string; ruleId?: string }>).filter((x) => (x.id ?? x.ruleId) !== 'retry-storm');
    olderBases('old-without', (r) => ({ ...r, tool: { name: 'agent-trace-audit', version: '0.0.9' }, rulesRun: notStorm(r['rulesRun']), rules: notStorm(r['rules']), findings: notStorm(r['findings']) }));
    writeSuite(root, { storm: true });
    const out = audit(['--fail-on', 'warning', '--baseline', 'old-without']);
    expect(out.code).toBe(0);
    // Its redundant-call notes are compared as before: flaky.
    expect(out.stdout.split('\n').slice(0, 3)).toEqual([
      '✅ no new findings (3 flaky findings; 1 finding not compared)',
      'compared with 5 baseline reports: 0 new, 3 flaky, 1 not compared, 0 fixed',
      '  flaky: redundant-call at traces/suite.jsonl:24: seen in 2 of the 5 baseline reports',
    ]);
    expect(out.stdout.split('\n')[5]).toBe('  not compared: 1 finding(s) of rules the baseline reports (0.0.9) did not run at this rule version');
    const md = audit(['--fail-on', 'warning', '--format', 'markdown', '--baseline', 'old-without']).stdout;
    expect(md).toContain("<details><summary>Not compared: 1 finding of rules new since the base's 0.0.9 (or run there at another rule version)</summary>");
    // Run there at another version: not compared either.
    olderBases('other-version', (r) => ({ ...r, rulesRun: (r['rulesRun'] as Array<{ id: string; version: number }>).map((x) => (x.id === 'retry-storm' ? { ...x, version: 3 } : x)) }));
    expect(audit(['--fail-on', 'warning', '--baseline', 'other-version']).stdout.split('\n')[0]).toBe('✅ no new findings (3 flaky findings; 1 finding not compared)');
  });

  it('a base written before rules carried versions (0.1: no rulesRun, fingerprints of ids): every rule read as run at version 1, so nothing is compared', () => {
    olderBases('old-unversioned', (r) => {
      const { rulesRun: _gone, ...rest } = r;
      return { ...rest, rules: (r['rules'] as Array<Record<string, unknown>>).map(({ version: _v, ...rule }) => rule) };
    });
    writeSuite(root, { storm: true });
    // Every rule is at version 2 since fingerprints name the scenario: neither new nor flaky nor fixed.
    const out = audit(['--fail-on', 'warning', '--baseline', 'old-unversioned']);
    expect([out.code, out.stdout.split('\n')[0]]).toEqual([0, '✅ no new findings (4 findings not compared)']);
    expect(out.stdout.split('\n')[1]).toBe('compared with 5 baseline reports: 0 new, 0 flaky, 4 not compared, 0 fixed');
    // Runs 1, 3 and 5 alone never stormed: still not compared, so the storm does not fail the gate.
    const calm = audit(['--fail-on', 'warning', '--baseline', 'old-unversioned/run-1.json', '--baseline', 'old-unversioned/run-3.json', '--baseline', 'old-unversioned/run-5.json']);
    expect([calm.code, calm.stdout.split('\n')[0]]).toEqual([0, '✅ no new findings (4 findings not compared)']);
  });

  it('a rule the head no longer runs: its base findings are not fixed', () => {
    const stormy = join(root, 'stormy');
    writeSuite(stormy, { storm: true });
    mkdirSync(join(stormy, 'base'));
    for (const i of [1, 2]) expect(audit(['--format', 'json', '-o', `base/run-${i}.json`, '--fail-on', 'never'], stormy).code).toBe(0);
    writeSuite(stormy, { storm: false });
    // The head runs both rules: the storm and its three repeats, which every base run had, are fixed.
    expect(audit(['--fail-on', 'warning', '--baseline', 'base'], stormy).stdout.split('\n')[1]).toBe('compared with 2 baseline reports: 0 new, 0 flaky, 0 not compared, 4 fixed');
    // The head turns retry-storm off: nothing says the storm is gone, so it is not fixed (the repeats still are).
    writeFileSync(join(stormy, 'agent-trace-audit.yml'), 'rules:\n  retry-storm: off\n');
    expect(audit(['--fail-on', 'warning', '--baseline', 'base'], stormy).stdout.split('\n')[1]).toBe('compared with 2 baseline reports: 0 new, 0 flaky, 0 not compared, 3 fixed');
  });
});
