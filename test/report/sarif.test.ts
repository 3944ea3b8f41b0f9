import { describe, expect, it } from 'vitest';
import { makeFinding } from '../../src/audit/findings/findings.js';
import { resolveConfig } from '../../src/config/config.js';
import { renderReport } from '../../src/report/index.js';
import { judge } from '../../src/report/verdict/judge.js';
import { FINGERPRINT_KEY, renderSarif, SARIF_MAX_RESULTS } from '../../src/report/render/sarif.js';
import { jsonl, reportOfFiles } from '../helpers.js';
import { sarifValidator } from './sarif-schema.js';

const validate = sarifValidator();

async function sarifOf(files: Record<string, string>) {
  const report = await reportOfFiles(files);
  return { report, text: renderSarif(report) };
}

describe('SARIF 2.1.0', () => {
  it('validates against the schema, with rule ids, levels, locations and fingerprints from the report', async () => {
    const { report, text } = await sarifOf({
      'traces/a b.jsonl': jsonl(
        { run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'search' },
        { run_id: 'r', span_id: 's2', kind: 'tool_result', call_id: 'zz', tool: 'search' },
      ),
    });
    const log = JSON.parse(text);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['catalog-missing', 'orphan-call', 'unmatched-result']);
    expect(report.findings.map((f) => f.ruleId)).toEqual(['catalog-missing', 'orphan-call', 'unmatched-result']);
    expect(run.results).toEqual([
      {
        ruleId: 'catalog-missing',
        ruleIndex: 0,
        level: 'note',
        message: { text: report.findings[0]!.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'traces/a%20b.jsonl' }, region: { startLine: 1 } } }],
        partialFingerprints: { [FINGERPRINT_KEY]: report.findings[0]!.fingerprint },
      },
      {
        ruleId: 'orphan-call',
        ruleIndex: 1,
        level: 'error',
        message: { text: report.findings[1]!.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'traces/a%20b.jsonl' }, region: { startLine: 1 } } }],
        partialFingerprints: { [FINGERPRINT_KEY]: report.findings[1]!.fingerprint },
      },
      {
        ruleId: 'unmatched-result',
        ruleIndex: 2,
        level: 'error',
        message: { text: report.findings[2]!.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'traces/a%20b.jsonl' }, region: { startLine: 2 } } }],
        partialFingerprints: { [FINGERPRINT_KEY]: report.findings[2]!.fingerprint },
      },
    ]);
  });

  it('is byte-identical for the same input, and valid with no findings', async () => {
    const files = { 't.jsonl': jsonl({ run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'x' }) };
    expect((await sarifOf(files)).text).toBe((await sarifOf(files)).text);
    const clean = JSON.parse((await sarifOf({ 't.jsonl': jsonl(
      { run_id: 'r', kind: 'catalog', tools: [{ name: 'x', schema_sha256: null }] },
      { run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'x' },
      { run_id: 'r', span_id: 's2', kind: 'tool_result', call_id: 'c1', tool: 'x', status: 'ok' },
    ) })).text);
    expect(validate(clean)).toBe(true);
    expect(clean.runs[0].results).toEqual([]);
  });

  it('past the results code scanning keeps, holds the most severe in report order and says how many were left out', async () => {
    const { report } = await sarifOf({
      't.jsonl': jsonl(
        { run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'search' },
        { run_id: 'r', span_id: 's2', kind: 'tool_result', call_id: 'zz', tool: 'search' },
        { run_id: 'r', span_id: 's3', kind: 'tool_call', call_id: 'c3', tool: 'search' },
      ),
    });
    expect(report.findings.map((f) => `${f.severity}:${f.ruleId}@${f.line}`)).toEqual([
      'note:catalog-missing@1',
      'error:orphan-call@1',
      'error:unmatched-result@2',
      'error:orphan-call@3',
    ]);
    const log = JSON.parse(renderSarif(report, { maxResults: 2 }));
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const run = log.runs[0];
    expect(run.results.map((r: { ruleId: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }> }) => `${r.ruleId}@${r.locations[0]!.physicalLocation.region.startLine}`)).toEqual([
      'orphan-call@1',
      'unmatched-result@2',
    ]);
    expect(run.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          { level: 'warning', message: { text: '2 of 4 findings are in this file, the most severe first (code scanning keeps 2 results per run); all of them are in report.json' } },
        ],
      },
    ]);
    // Within the limit: every finding and no notification.
    const all = JSON.parse(renderSarif(report, { maxResults: 4 })).runs[0];
    expect(all.results).toHaveLength(4);
    expect(all.invocations).toBeUndefined();
  });

  it('keeps 5,000 results by default: code scanning stores no more and rejects an upload of more than 25,000', async () => {
    const { report } = await sarifOf({ 't.jsonl': jsonl({ run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'x' }) });
    const one = report.findings.find((f) => f.ruleId === 'orphan-call')!;
    const many = { ...report, findings: Array.from({ length: 30_000 }, (_, i) => ({ ...one, line: i + 1, fingerprint: i.toString(16).padStart(16, '0') })) };
    const run = JSON.parse(renderSarif(many)).runs[0];
    expect(SARIF_MAX_RESULTS).toBe(5000);
    expect(run.results).toHaveLength(5000);
    expect(run.results[4999].locations[0].physicalLocation.region.startLine).toBe(5000);
  });

  it('suppressed findings are results with an accepted external suppression; compared with a baseline, each result says new or unchanged', async () => {
    const { report } = await sarifOf({
      'traces/a.jsonl': jsonl(
        { run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'search' },
        { run_id: 'r', span_id: 's2', kind: 'tool_result', call_id: 'zz', tool: 'search' },
      ),
    });
    const [catalog, orphan, unmatched] = report.findings as [(typeof report.findings)[number], (typeof report.findings)[number], (typeof report.findings)[number]];
    expect([catalog.ruleId, orphan.ruleId, unmatched.ruleId]).toEqual(['catalog-missing', 'orphan-call', 'unmatched-result']);
    // The base branch had the orphan and a finding this head no longer has (fixed: not a result).
    const gone = makeFinding('retry-storm', 'warning', { loc: { file: 'traces/old.jsonl', line: 7 }, message: 'gone' });
    const baseline = { ...report, findings: [orphan, gone] };
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
    const config = resolveConfig({ suppress: [{ rule: 'catalog-missing', reason: `the fixture has no catalog \u202eon purpose\u0007; old key ${token}` }] });
    const judged = judge(report, { config, baseline, defaultGate: 'new', allowEmpty: false });
    // The CLI's path (--format sarif --baseline) and the Action's (the judged report's baselineState) are one renderer.
    const text = renderReport(judged.report, 'sarif', [], judged);
    expect(text).toBe(renderSarif(judged.report));
    const log = JSON.parse(text);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const run = log.runs[0];
    // The suppressed finding's rule left the judged report's rules; the driver still describes it.
    expect(judged.report.rules.map((r) => r.id)).toEqual(['orphan-call', 'unmatched-result']);
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['catalog-missing', 'orphan-call', 'unmatched-result']);
    expect(run.tool.driver.rules[0].defaultConfiguration).toEqual({ level: 'note' });
    expect(run.results.map((r: { ruleId: string; ruleIndex: number; baselineState?: string; suppressions?: unknown }) => [r.ruleId, r.ruleIndex, r.baselineState ?? null, r.suppressions ?? null])).toEqual([
      ['orphan-call', 1, 'unchanged', null],
      ['unmatched-result', 2, 'new', null],
      ['catalog-missing', 0, null, [{ kind: 'external', status: 'accepted', justification: expect.any(String) }]],
    ]);
    // The reason is the configuration's text, sanitized: the token redacted, control and bidi characters gone.
    const justification: string = run.results[2].suppressions[0].justification;
    expect(justification.startsWith('the fixture has no catalog on purpose; old key ')).toBe(true);
    expect(justification).not.toContain(token);
    expect(justification).toMatch(/\[REDACTED/);
    expect(justification).not.toMatch(/[\u202e\u0007]/);
    // Fingerprints stay what they were before the suppression: an alert keeps its identity when it is suppressed.
    const before = JSON.parse(renderSarif(report)).runs[0].results as Array<{ ruleId: string; partialFingerprints: Record<string, string> }>;
    const print = (rule: string, results: typeof before) => results.find((r) => r.ruleId === rule)!.partialFingerprints[FINGERPRINT_KEY];
    for (const rule of ['catalog-missing', 'orphan-call', 'unmatched-result']) expect(print(rule, run.results)).toBe(print(rule, before));
    expect(print('catalog-missing', run.results)).toBe(catalog.fingerprint);
    // Not compared: no baselineState at all; the suppression stays.
    const unjudged = judge(report, { config, baseline: null, defaultGate: 'all', allowEmpty: false });
    const alone = JSON.parse(renderSarif(unjudged.report)).runs[0].results as Array<Record<string, unknown>>;
    expect(alone.map((r) => 'baselineState' in r)).toEqual([false, false, false]);
    expect(alone.map((r) => 'suppressions' in r)).toEqual([false, false, true]);
    expect(validate(JSON.parse(renderSarif(unjudged.report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('baselineState counts fingerprints as the comparison does: of a finding twice where the base had it once, the second is new', async () => {
    const { report } = await sarifOf({ 't.jsonl': jsonl({ run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'x' }) });
    const orphan = report.findings.find((f) => f.ruleId === 'orphan-call')!;
    const twice = { ...report, findings: [orphan, { ...orphan, line: 9 }] };
    const judged = judge(twice, { config: resolveConfig({}), baseline: { ...report, findings: [orphan] }, defaultGate: 'new', allowEmpty: false });
    expect(judged.verdict.delta?.added.map((f) => f.line)).toEqual([9]);
    // The judged report as a copy (a report read back): the state is the finding's own.
    const copy = structuredClone(judged.report);
    const results = JSON.parse(renderSarif(copy)).runs[0].results as Array<{ baselineState: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }> }>;
    expect(results.map((r) => [r.locations[0]!.physicalLocation.region.startLine, r.baselineState])).toEqual([
      [1, 'unchanged'],
      [9, 'new'],
    ]);
  });

  it('suppressed results take only the room the judged ones leave, and a count past the listed ones is said', async () => {
    const { report } = await sarifOf({
      't.jsonl': jsonl(
        { run_id: 'r', span_id: 's1', kind: 'tool_call', call_id: 'c1', tool: 'search' },
        { run_id: 'r', span_id: 's2', kind: 'tool_result', call_id: 'zz', tool: 'search' },
      ),
    });
    const judged = judge(report, { config: resolveConfig({ suppress: [{ rule: 'catalog-missing', reason: 'no catalog' }] }), baseline: null, defaultGate: 'all', allowEmpty: false });
    const log = JSON.parse(renderSarif(judged.report, { maxResults: 2 }));
    const full = log.runs[0];
    expect(full.results.map((r: { ruleId: string }) => r.ruleId)).toEqual(['orphan-call', 'unmatched-result']);
    expect(full.invocations[0].toolExecutionNotifications.map((n: { message: { text: string } }) => n.message.text)).toEqual([
      '0 of 1 suppressed findings are in this file (as suppressed results); report.json counts them all and lists up to 1',
    ]);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    // With room: the suppressed one follows the judged ones, and nothing is said.
    const roomy = JSON.parse(renderSarif(judged.report, { maxResults: 3 })).runs[0];
    expect(roomy.results.map((r: { ruleId: string }) => r.ruleId)).toEqual(['orphan-call', 'unmatched-result', 'catalog-missing']);
    expect(roomy.invocations).toBeUndefined();
  });

  it('the validator rejects a broken log (the test can fail)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} }, results: [] }] })).toBe(false);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
    // A suppression's status is one of three words, and its kind is required.
    const result = { ruleId: 'x', message: { text: 'm' } };
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 't' } }, results: [{ ...result, suppressions: [{ kind: 'external', status: 'dismissed' }] }] }] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 't' } }, results: [{ ...result, suppressions: [{ status: 'accepted' }] }] }] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 't' } }, results: [{ ...result, baselineState: 'fixed' }] }] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 't' } }, results: [{ ...result, suppressions: [{ kind: 'external', status: 'accepted' }], baselineState: 'new' }] }] })).toBe(true);
  });
});
