import { describe, expect, it } from 'vitest';
import { configFileSchema, resolveConfig, type ConfigFile } from '../../../src/config/config.js';
import { collectInputs } from '../../../src/io/collect.js';
import type { Report } from '../../../src/report/schema.js';
import { findingDelta } from '../../../src/report/verdict/delta.js';
import { audited, tempTree } from '../../helpers.js';
import { claudeCodeSuite, inspectSuite, nativeSuite, otelSuite, type SuiteRun } from './rerun-suite.js';

type Writer = (run: SuiteRun) => Record<string, string | Uint8Array>;

/** Writes one run of the suite into its own folder and audits that folder, as a CI job does. */
async function auditRun(write: Writer, run: SuiteRun, config: ConfigFile = {}): Promise<Report> {
  const root = tempTree(write(run));
  const { inputs } = await collectInputs([root], { root, strict: true });
  return (await audited(inputs, resolveConfig(config))).report;
}

const shape = (r: Report) => r.findings.map((f) => [f.ruleId, f.tool, f.callId === null ? null : 'call'] as const);

/**
 * The same agent suite, written afresh twice (new ids of every kind, new file names,
 * scenarios in the other order), gives the same fingerprints; one new orphan in one
 * scenario is new alone, though another scenario has the very same orphan.
 */
/** What the regression adds where the model goes on after the orphaned call: the orphan, and the model's turns while it was outstanding. */
const BOTH = [
  ['orphan-call', 'fetch_page', 'call'],
  ['continued-while-outstanding', 'fetch_page', 'call'],
] as const;

const FORMATS: Array<[string, Writer, string, readonly (readonly [string, string | null, string | null])[]]> = [
  ['native JSONL (fresh run and call ids, a timestamped file name)', nativeSuite, 'native-jsonl', BOTH],
  ['Claude Code sessions (fresh session ids and file names)', claudeCodeSuite, 'claude-code', BOTH],
  ['an Inspect .eval (fresh sample uuids and log name)', inspectSuite, 'inspect', BOTH],
  ['OTLP JSON from the OpenTelemetry JS SDK (random trace and span ids)', otelSuite, 'otlp-json', [['orphan-call', 'fetch_page', 'call']]],
];

describe('a finding keeps its identity when the suite runs again', () => {
  for (const [what, write, format, regression] of FORMATS) {
    it(`${what}: 0 new, 0 fixed; one new orphan: exactly its findings new`, async () => {
      const base = await auditRun(write, { order: 'forward', regression: false });
      expect(base.files.map((f) => f.format)).toEqual(base.files.map(() => format));
      // The suite has findings to keep: the refund scenario's orphan among them.
      expect(base.findings.length).toBeGreaterThanOrEqual(3);
      expect(shape(base)).toContainEqual(['orphan-call', 'fetch_page', 'call']);

      const again = await auditRun(write, { order: 'reversed', regression: false });
      expect(again.findings.map((f) => f.fingerprint).sort()).toEqual(base.findings.map((f) => f.fingerprint).sort());
      // Every file name and call id is new, the fingerprints are not.
      const calls = (r: Report) => new Set(r.findings.flatMap((f) => (f.callId === null ? [] : [f.callId])));
      expect([...calls(again)].filter((id) => calls(base).has(id))).toEqual([]);
      expect(again.files.map((f) => f.path).filter((p) => base.files.some((b) => b.path === p))).toEqual([]);
      const delta = findingDelta(base, again);
      expect([delta.added.length, delta.fixed.length]).toEqual([0, 0]);

      const regressed = await auditRun(write, { order: 'reversed', regression: true });
      const changed = findingDelta(base, regressed);
      expect(changed.fixed).toEqual([]);
      expect(shape({ ...regressed, findings: [...changed.added] })).toEqual(regression);
      // The new orphan is the checkout scenario's (the refund scenario's identical orphan is not it).
      const refund = base.findings.find((f) => f.ruleId === 'orphan-call')!;
      expect(changed.added.map((f) => f.fingerprint)).not.toContain(refund.fingerprint);
      expect(regressed.findings.filter((f) => f.ruleId === 'orphan-call')).toHaveLength(2);
    });
  }
});

describe('the identity: configuration section', () => {
  it('names the scenario with a JSONPath query over the records, above the format\'s own name', async () => {
    const config: ConfigFile = { identity: { scenario: '$.labels.case' } };
    const write = (label: string): Writer => (run) => {
      const files = nativeSuite(run);
      const [[name, text]] = Object.entries(files) as [[string, string]];
      // Each run's run_name is new on every run here (a counter): only the configured label is stable.
      const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      const names = new Map<unknown, string>();
      for (const l of lines) if (typeof l['run_name'] === 'string') names.set(l['run_id'], l['run_name']);
      const out = lines.map((l) => JSON.stringify({ ...l, run_name: `${label}-${String(l['run_id'])}`, labels: { case: names.get(l['run_id']) } }));
      return { [name]: `${out.join('\n')}\n` };
    };
    const base = await auditRun(write('a'), { order: 'forward', regression: false }, config);
    const again = await auditRun(write('b'), { order: 'reversed', regression: false }, config);
    expect(findingDelta(base, again)).toMatchObject({ added: [], fixed: [], flaky: [], notCompared: [] });
    // Without the query, the run names (new each time) are the scenarios: every finding is new.
    const plainBase = await auditRun(write('a'), { order: 'forward', regression: false });
    const plainAgain = await auditRun(write('b'), { order: 'reversed', regression: false });
    expect(findingDelta(plainBase, plainAgain).added).toHaveLength(plainAgain.findings.length);
  });

  it('is checked like the formats: section (a bad query is a configuration error)', () => {
    const parsed = configFileSchema().safeParse({ identity: { scenario: ['$.a', '$..a..b'] } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/descendant segments/);
    expect(configFileSchema().safeParse({ identity: { scenario: '$.a', other: 1 } }).success).toBe(false);
  });
});
