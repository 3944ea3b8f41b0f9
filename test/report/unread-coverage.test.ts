import { describe, expect, it } from 'vitest';
import { makeFinding } from '../../src/audit/findings/findings.js';
import type { Severity } from '../../src/model/finding.js';
import { mergeReports } from '../../src/report/merge.js';
import { reportSchema, type Report } from '../../src/report/schema.js';
import { renderJson } from '../../src/report/render/json.js';
import { coverageOf } from '../../src/report/verdict/coverage.js';
import { judge } from '../../src/report/verdict/judge.js';
import { decideVerdict } from '../../src/report/verdict/verdict.js';
import { resolveConfig } from '../../src/config/config.js';

type FileEntry = Report['files'][number];
const read = (path: string, calls = 2, extra: Partial<FileEntry> = {}): FileEntry => ({ path, format: 'native-jsonl', records: calls * 2, runs: 1, skipped: [], toolCalls: calls, toolResults: calls, ...extra });
const unknown = (path: string): FileEntry => ({ path, format: 'unknown', records: 0, runs: 0, skipped: [], toolCalls: 0, toolResults: 0 });
const claimed = (path: string, format: string, skipped: FileEntry['skipped'] = [], extra: Partial<FileEntry> = {}): FileEntry => ({ path, format, records: 0, runs: 0, skipped, toolCalls: 0, toolResults: 0, ...extra });
const apart = (path: string, notTrace: string): FileEntry => ({ ...unknown(path), notTrace });

function report(files: FileEntry[], severities: Severity[] = []): Report {
  const counts = { error: 0, warning: 0, note: 0 };
  const findings = severities.map((severity, i) => makeFinding(severity === 'error' ? 'orphan-call' : severity === 'warning' ? 'unknown-format' : 'ingest-note', severity, { loc: { file: files[0]!.path, line: i + 1 }, message: `finding ${i}` }));
  for (const f of findings) counts[f.severity] += 1;
  const calls = files.reduce((n, f) => n + (f.toolCalls ?? 0), 0);
  return {
    schemaVersion: 1,
    tool: { name: 'agent-trace-audit', version: '0.1.0' },
    summary: { files: files.filter((f) => f.notTrace === undefined).length, runs: 1, toolCalls: calls, toolResults: calls, findings: counts },
    files,
    runs: files.filter((f) => (f.toolCalls ?? 0) > 0).map((f) => ({ file: f.path, runId: null, format: f.format, catalogSha256: null, toolCalls: f.toolCalls!, toolResults: f.toolResults! })),
    rules: [],
    metrics: {},
    findings,
  };
}

// The folder: nine trace files, seven no format reads, one whose every record was left out, one read.
const nine = [
  ...Array.from({ length: 7 }, (_, i) => unknown(`traces/u${i}.json`)),
  claimed('traces/bedrock.yaml', 'openai', [{ reason: 'response body that is not JSON', count: 2, firstLine: 9 }]),
  read('traces/run.jsonl'),
  apart('traces/README.md', 'text that is not JSON or YAML'),
  apart('traces/diagram.png', 'a PNG image'),
];
const sevenWarningsTwoNotes: Severity[] = [...Array<Severity>(7).fill('warning'), 'note', 'note'];

describe('coverage by file: a trace file counts as read only when records came out of it', () => {
  it('classifies every file: read, partly read, unknown format, unreadable, skipped, no records, not a trace', () => {
    const c = coverageOf(
      report([
        read('a.jsonl'),
        read('b.json', 0, { records: 3, toolShaped: 4 }),
        unknown('c.json'),
        claimed('d.jsonl', 'claude-code', [{ reason: 'malformed-record', count: 3, firstLine: 1 }, { reason: 'record type "summary"', count: 1, firstLine: 4 }], { toolShaped: 2 }),
        claimed('e.json.gz', 'native-jsonl', [{ reason: 'truncated-tail', count: 1, firstLine: 9 }]),
        claimed('f.yaml', 'openai', [{ reason: 'request without a body', count: 2, firstLine: 3 }]),
        claimed('g.test.json', 'google-adk'),
        apart('README.md', 'text that is not JSON or YAML'),
      ]),
    );
    expect(c).toEqual({
      files: 7,
      read: 2,
      unread: [
        { path: 'c.json', reason: 'unknown-format' },
        { path: 'd.jsonl', reason: 'unreadable', format: 'claude-code', toolShaped: 2 },
        { path: 'e.json.gz', reason: 'unreadable', format: 'native-jsonl' },
        { path: 'f.yaml', reason: 'skipped', format: 'openai' },
        { path: 'g.test.json', reason: 'no-records', format: 'google-adk' },
      ],
      partlyRead: 1,
      notTraces: [{ path: 'README.md', reason: 'text that is not JSON or YAML' }],
      records: 7,
      toolCalls: 2,
      toolResults: 2,
      skipped: 7,
    });
  });

  it('the issue\'s folder: the line leads with what was not read, never a bare ✅; the check run is neutral; the README and the image are apart', () => {
    const v = decideVerdict({ report: report(nine, sevenWarningsTwoNotes), failOn: 'error', gate: 'all', delta: null, allowEmpty: false });
    expect(v.headline).toBe('⚠️ 8 of 9 files not read (7 unknown format, 1 skipped) · ✅ no errors (7 warnings, 2 notes)');
    expect([v.state, v.failed, v.conclusion]).toEqual(['passed', false, 'neutral']);
    expect(v.coverage.notTraces.map((f) => f.path)).toEqual(['traces/README.md', 'traces/diagram.png']);
    expect(v.coverage.files).toBe(9);
  });

  it('fail-on-unread fails on them (❌ leads), whatever the findings; the findings still say theirs', () => {
    const v = decideVerdict({ report: report(nine, sevenWarningsTwoNotes), failOn: 'error', gate: 'all', delta: null, allowEmpty: false, failOnUnread: true });
    expect(v.headline).toBe('❌ 8 of 9 files not read (7 unknown format, 1 skipped) · ✅ no errors (7 warnings, 2 notes)');
    expect([v.state, v.failed, v.conclusion, v.failedBy]).toEqual(['failed', true, 'failure', { findings: false, unread: true }]);
    const both = decideVerdict({ report: report(nine, ['error']), failOn: 'error', gate: 'all', delta: null, allowEmpty: false });
    expect([both.headline, both.conclusion, both.failedBy]).toEqual(['⚠️ 8 of 9 files not read (7 unknown format, 1 skipped) · ❌ 1 error', 'failure', { findings: true, unread: false }]);
    // Every file read: success, as before; fail-on-unread changes nothing.
    const clean = decideVerdict({ report: report([read('a.jsonl'), apart('notes.txt', 'text that is not JSON or YAML')]), failOn: 'error', gate: 'all', delta: null, allowEmpty: false, failOnUnread: true });
    expect([clean.headline, clean.conclusion, clean.failed]).toEqual(['✅ no errors', 'success', false]);
  });

  it('not read and partly read together, and the nothing-audited line', () => {
    const files = [read('a.jsonl'), read('b.json', 0, { records: 2, toolShaped: 3 }), unknown('c.json')];
    const v = decideVerdict({ report: report(files), failOn: 'warning', gate: 'all', delta: null, allowEmpty: false });
    expect(v.headline).toBe('⚠️ 1 of 3 files not read (1 unknown format) · partly read (1 of 3 files) · ✅ no errors or warnings');
    const onlyApart = decideVerdict({ report: report([apart('README.md', 'text that is not JSON or YAML'), apart('a.png', 'a PNG image')]), failOn: 'error', gate: 'all', delta: null, allowEmpty: false });
    expect([onlyApart.state, onlyApart.headline]).toEqual(['nothing-audited', '⚠️ nothing audited: no trace file was found (2 files not trace-like)']);
    const shaped = decideVerdict({ report: report([claimed('big.jsonl', 'native-jsonl', [{ reason: 'malformed-record', count: 1, firstLine: 1 }], { toolShaped: 1 })]), failOn: 'error', gate: 'all', delta: null, allowEmpty: false });
    expect(shaped.headline).toBe('⚠️ nothing audited: no tool call was read from 1 file (1 file holds tool calls that were not read)');
  });

  it('the JSON report carries the verdict after its summary, valid against the schema; merge combines the shards\' coverage', () => {
    const config = resolveConfig({});
    const options = { config, baseline: null, defaultGate: 'all' as const, allowEmpty: false };
    const shardA = judge(report(nine.slice(0, 5)), options).report;
    const shardB = judge(report(nine.slice(5), sevenWarningsTwoNotes.slice(0, 2)), options).report;
    const json = JSON.parse(renderJson(shardB)) as Record<string, unknown>;
    expect(Object.keys(json).slice(0, 5)).toEqual(['schemaVersion', 'tool', 'summary', 'verdict', 'files']);
    expect(reportSchema.parse(json).verdict?.coverage.unread.map((f) => [f.path, f.reason, f.format])).toEqual([
      ['traces/u5.json', 'unknown-format', undefined],
      ['traces/u6.json', 'unknown-format', undefined],
      ['traces/bedrock.yaml', 'skipped', 'openai'],
    ]);
    const merged = judge(mergeReports([shardA, shardB]), options).report;
    expect(merged.summary.files).toBe(9);
    expect(merged.verdict?.coverage.unread.length).toBe(8);
    expect(merged.verdict?.coverage.read).toBe(1);
    expect(merged.verdict?.coverage.notTraces.map((f) => f.path)).toEqual(['traces/README.md', 'traces/diagram.png']);
    expect(merged.verdict?.headline).toBe('⚠️ 8 of 9 files not read (7 unknown format, 1 skipped) · ✅ no errors (2 warnings)');
    expect(reportSchema.safeParse(JSON.parse(renderJson(merged))).success).toBe(true);
  });
});
