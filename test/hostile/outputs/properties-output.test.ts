import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, renderWithinBudget } from '../../../src/report/render/budget.js';
import { renderJson } from '../../../src/report/render/json.js';
import { judgedAlone } from '../../helpers.js';
import { renderMarkdown } from '../../../src/report/render/markdown.js';
import { renderSarif } from '../../../src/report/render/sarif.js';
import { renderText } from '../../../src/report/render/text.js';
import { reportSchema, type Report } from '../../../src/report/schema.js';
import { anySecret, filler } from '../../secret-samples.js';
import { HOSTILE_TEXT } from './hostile-text.js';
import { markupFromTrace, renderGfm } from './markdown-check.js';
import { auditOne } from './property-run.js';
import { CMARK_GFM, itWith } from '../../system-tools.js';

const RUNS = Number(process.env['ATA_PROP_RUNS'] ?? 100);

/** Text built to become markup: hostile pieces, markdown and HTML punctuation, any characters. */
const hostileString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(...HOSTILE_TEXT, '\\', '\\|', '|', '`', '``', '\n', '\r', '<', '>', '&', '*', '_', '~', '[', ']', '(', ')', '!', '#', '@', ':', ' ', 'a', 'www.x.io', 'mailto:a@b.co', '<a href="https://x.io">x</a>', '<details>', '<sub>', '&lt;img&gt;'),
      fc.string({ maxLength: 6, unit: 'binary' }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const fingerprint = fc.stringMatching(/^[0-9a-f]{16}$/);
const finding = fc.record({
  ruleId: hostileString,
  severity: fc.constantFrom('error' as const, 'warning' as const, 'note' as const),
  message: hostileString,
  file: hostileString,
  line: fc.nat({ max: 100_000 }),
  runId: fc.option(hostileString),
  callId: fc.option(hostileString),
  tool: fc.option(hostileString),
  fingerprint,
});

/** Any report the schema accepts, its text fields hostile (renderers must hold even for unsanitized text). */
const anyReport: fc.Arbitrary<Report> = fc
  .tuple(fc.array(finding, { maxLength: 8 }), fc.array(hostileString, { maxLength: 3 }))
  .map(([findings, extraRules]) => {
    const ids = [...new Set([...findings.map((f) => f.ruleId), ...extraRules])];
    const count = (s: string) => findings.filter((f) => f.severity === s).length;
    return reportSchema.parse({
      schemaVersion: 1,
      tool: { name: 'agent-trace-audit', version: '0.1.0' },
      summary: { files: 1, runs: 1, toolCalls: 0, toolResults: 0, findings: { error: count('error'), warning: count('warning'), note: count('note') } },
      files: [],
      runs: [],
      rules: ids.map((id) => ({ id, severity: 'error', summary: 's', likelyCause: 'cause', nextAction: 'action' })),
      metrics: {},
      findings,
    });
  });

/** Cells cmark-gfm makes of one table row: under a 10-column header the row is padded with empty cells, never cut. */
function cellsOf(row: string): number {
  return cellsOfRows([row])[0]!;
}

/**
 * `cellsOf` for each row, in one cmark-gfm run: each row under its own header, the tables apart
 * by a blank line (a row is one line, so it cannot join the next table). If cmark-gfm does not
 * give one table per row, each row is rendered alone.
 */
function cellsOfRows(rows: readonly string[]): number[] {
  if (rows.length === 0) return [];
  const header = `${'| h '.repeat(10)}|\n${'|---'.repeat(10)}|\n`;
  const tables = renderGfm(rows.map((row) => `${header}${row}\n`).join('\n')).split('<table>').slice(1);
  if (tables.length !== rows.length) return rows.length === 1 ? [0] : rows.map((row) => cellsOfRows([row])[0]!);
  return tables.map((html) => {
    const cells = [...html.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => m[1]!);
    let last = cells.length;
    while (last > 0 && cells[last - 1] === '') last -= 1;
    return last;
  });
}

describe('property: what the outputs never contain', () => {
  itWith(CMARK_GFM, 'the row check can fail: an unescaped pipe in a cell adds a cell', () => {
    expect(cellsOf('| error | `r` | `f:1` | `a \\| b` |')).toBe(4);
    expect(cellsOf('| error | `r` | `f:1` | `a | b` |')).toBe(5);
    // Several rows in one run: each counted under its own header.
    expect(cellsOfRows(['| a |', '| error | `r` | `f:1` | `a | b` |', '| x | y |'])).toEqual([1, 5, 2]);
  });

  it('a lone surrogate in a file name (a report read back from disk) becomes U+FFFD in the SARIF uri', () => {
    const report = fc.sample(anyReport, { seed: 1, numRuns: 1 })[0]!;
    const withFinding = { ...report, findings: [{ ruleId: 'r', severity: 'error' as const, message: 'm', file: 'a\ud800b/c', line: 1, runId: null, callId: null, tool: null, fingerprint: '0123456789abcdef' }] };
    const sarif = JSON.parse(renderSarif(withFinding)) as { runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }> };
    expect(sarif.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('a%EF%BF%BDb/c');
  });

  it('every renderer takes any report the schema accepts (lone surrogates, controls, any text) without throwing', () => {
    fc.assert(
      fc.property(anyReport, (report) => {
        const sarif = JSON.parse(renderSarif(report)) as { runs: Array<{ results: unknown[] }> };
        expect(sarif.runs[0]!.results).toHaveLength(report.findings.length);
        expect(typeof renderText(report)).toBe('string');
        expect(JSON.parse(renderJson(report))).toEqual(JSON.parse(JSON.stringify(report)));
      }),
      { seed: Number(process.env['ATA_PROP_SEED'] ?? 99), numRuns: RUNS },
    );
  });

  itWith(CMARK_GFM, 'markdown of any report, rendered by cmark-gfm, has no link, image, mention, reference or element from its text; table rows stay whole', () => {
    fc.assert(
      fc.property(anyReport, (report) => {
        for (const markdown of [renderMarkdown(report, judgedAlone(report)), renderWithinBudget(report, COMMENT_LIMIT, { tail: ['<!-- agent-trace-audit -->'] }).markdown]) {
          expect(markupFromTrace(renderGfm(markdown))).toEqual([]);
          const rows = markdown.split('\n').filter((line) => line.startsWith('| '));
          const cells = cellsOfRows(rows);
          rows.forEach((row, i) => expect(cells[i], row).toBeLessThanOrEqual(row.startsWith('| error') || row.startsWith('| warning') || row.startsWith('| note') ? 4 : 6));
        }
      }),
      { seed: Number(process.env['ATA_PROP_SEED'] ?? 4242), numRuns: RUNS },
    );
  }, 120_000);

  it('no generated secret appears in any output, wherever in the trace it stands and however it is disguised', async () => {
    const disguise = (text: string, how: number) =>
      // In JSON text: as is, its first letter as a \\u escape, or split by a zero-width space.
      how === 0 ? JSON.stringify(text).slice(1, -1) : how === 1 ? `\\u${text.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(text.slice(1)).slice(1, -1)}` : JSON.stringify(`${text.slice(0, 4)}\u200b${text.slice(4)}`).slice(1, -1);
    await fc.assert(
      fc.asyncProperty(anySecret, filler, fc.nat({ max: 2 }), fc.nat({ max: 4 }), async (secret, words, how, where) => {
        const s = `${words} ${disguise(secret.text, how)} ${words}`;
        const lines = [
          `{"run_id":"r1","kind":"tool_call","call_id":"c1","tool":"ls","args":{"v":"${where === 0 ? s : 'x'}"}}`,
          `{"run_id":"r1","kind":"tool_result","call_id":"c1","tool":"ls","result":"${where === 1 ? s : 'ok'}"}`,
          `{"run_id":"r1","kind":"tool_call","call_id":"${where === 2 ? s : 'c2'}","tool":"${where === 3 ? s : 'grep'}"}`,
          where === 4 ? `{"broken":"${s}` : '',
        ];
        const outcome = await auditOne('t.jsonl', `${lines.join('\n')}\n`);
        expect([0, 1]).toContain(outcome.code);
        for (const [format, text] of Object.entries(outcome.outputs)) {
          expect(text.includes(secret.hidden), `${secret.ruleId} in ${format}`).toBe(false);
        }
      }),
      { seed: Number(process.env['ATA_PROP_SEED'] ?? 1337), numRuns: RUNS },
    );
  }, 120_000);
});
