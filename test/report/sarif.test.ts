import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FINGERPRINT_KEY, renderSarif, SARIF_MAX_RESULTS } from '../../src/report/render/sarif.js';
import { jsonl, reportOfFiles } from '../helpers.js';

// The SARIF 2.1.0 schema (final rtm.5) as shipped by @microsoft/jest-sarif (MIT).
// (Its `language` pattern is not valid as a unicode regexp, hence unicodeRegExp: false.)
// It is a draft-04 document whose only draft-04-specific keyword is `id`; Ajv 8 reads it as draft-07 once `id` is `$id`.
function sarifValidator() {
  const schema = JSON.parse(readFileSync('node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json', 'utf8')) as Record<string, unknown>;
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  ajv.addFormat('uri', (v: string) => URL.canParse(v));
  ajv.addFormat('uri-reference', (v: string) => URL.canParse(v, 'http://base.invalid/') && !/\s/.test(v));
  ajv.addFormat('date-time', (v: string) => !Number.isNaN(Date.parse(v)));
  return ajv.compile({ $id: String(id), ...rest });
}

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
    const log = JSON.parse(renderSarif(report, 2));
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
    const all = JSON.parse(renderSarif(report, 4)).runs[0];
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

  it('the validator rejects a broken log (the test can fail)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} }, results: [] }] })).toBe(false);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
  });
});
