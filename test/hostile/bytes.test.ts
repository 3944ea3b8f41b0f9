import { describe, expect, it } from 'vitest';
import { auditJson, brief } from './audit-cli.js';

const FIX = 'test/hostile/fixtures';
const CATALOG_1 = 'catalog-missing@1 run has 1 tool call but no catalog record: nothing to check the tool names against';
const CATALOG_2 = 'catalog-missing@1 run has 2 tool calls but no catalog record: nothing to check the tool names against';

/**
 * Byte-level hostile inputs (committed fixtures): each is read to the end, every
 * bad line is reported with its line number, good lines around it still count.
 */
describe('hostile bytes: every case is read, reported with its line, never a crash', () => {
  const cases: Array<[file: string, code: number, calls: number, results: number, findings: string[]]> = [
    // Nothing audited: exit 1 (unless --allow-empty), and a note that the file holds no tool calls.
    ['empty.jsonl', 1, 0, 0, ["ingest-note@0 the file is empty ('native-jsonl': no record, only white space or nothing at all): its writer wrote no trace"]],
    ['no-final-newline.jsonl', 0, 2, 2, [CATALOG_2, 'missing-final-newline@4 last record has no final newline']],
    [
      'cut-mid-record.jsonl',
      1,
      1,
      1,
      [CATALOG_1, 'truncated-tail@3 last line is cut short (no final newline, incomplete JSON): "{"run_id":"r1","kind":"tool_ca"'],
    ],
    ['cut-mid-utf8.jsonl', 1, 1, 1, [CATALOG_1, 'truncated-tail@3 last line is cut short: invalid UTF-8 at byte 60 of the line']],
    ['bom.jsonl', 0, 1, 1, ['byte-order-mark@1 file starts with a UTF-8 byte order mark', CATALOG_1]],
    ['crlf.jsonl', 0, 1, 1, [CATALOG_1]],
    [
      // A raw CR inside a string is not JSON; a lone CR between two records does not end a line.
      'lone-cr.jsonl',
      1,
      0,
      1,
      [
        'malformed-record@1 not JSON: unexpected token at position 70: "{"run_id":"r1","kind":"tool_call","call_id":"c1","tool":"ls"…"',
        "unmatched-result@2 result for call id 'c1' ('ls') has no matching call in this run",
        'malformed-record@3 not JSON: unexpected token at position 62: "{"run_id":"r1","kind":"tool_call","call_id":"c2","tool":"ls"…"',
      ],
    ],
    ['blank-lines.jsonl', 0, 1, 1, ['catalog-missing@3 run has 1 tool call but no catalog record: nothing to check the tool names against']],
    [
      // FF FE, an overlong "/" (C0 AF) and an encoded surrogate (ED A0 80): each line refused, the next read.
      'invalid-utf8.jsonl',
      1,
      2,
      2,
      [
        CATALOG_2,
        'malformed-record@3 invalid UTF-8 at byte 0 of the line',
        'malformed-record@4 invalid UTF-8 at byte 57 of the line',
        'malformed-record@5 invalid UTF-8 at byte 57 of the line',
      ],
    ],
    [
      'raw-nul.jsonl',
      1,
      2,
      2,
      [
        CATALOG_2,
        // The NUL byte is removed before the excerpt is cut, so the whole (short) line shows.
        'malformed-record@3 not JSON: unexpected token at position 58: "{"run_id":"r1","kind":"tool_call","call_id":"c2","tool":"ls"}"',
        'malformed-record@4 not JSON: invalid syntax: ""',
      ],
    ],
    ['escaped-nul.jsonl', 0, 2, 2, [CATALOG_2]],
    [
      'duplicate-keys.jsonl',
      1,
      2,
      2,
      [CATALOG_2, 'malformed-record@3 duplicate object key "tool": "{"run_id":"r1","kind":"tool_call","call_id":"c2","tool":"ls"…"'],
    ],
    ['lone-surrogate.jsonl', 0, 2, 2, [CATALOG_2]],
    [
      'non-object-lines.jsonl',
      1,
      2,
      2,
      [
        CATALOG_2,
        'malformed-record@3 record is a JSON array, not an object',
        'malformed-record@4 record is a JSON string, not an object',
        'malformed-record@5 record is a JSON number, not an object',
        'malformed-record@6 record is a JSON null, not an object',
        'malformed-record@7 record is a JSON boolean, not an object',
      ],
    ],
    [
      'two-values.jsonl',
      1,
      2,
      2,
      [
        CATALOG_2,
        'malformed-record@3 not JSON: unexpected token at position 62: "{"run_id":"r1","kind":"tool_call","call_id":"c2","tool":"ls"…"',
        'malformed-record@4 not JSON: unexpected token at position 61: "{"run_id":"r1","kind":"tool_call","call_id":"c3","tool":"ls"…"',
      ],
    ],
    ['gzip-normal.jsonl.gz', 0, 2, 2, [CATALOG_2]],
    ['gzip-multi-member.jsonl.gz', 0, 2, 2, [CATALOG_2]],
    [
      'gzip-truncated.jsonl.gz',
      1,
      1,
      0,
      [
        CATALOG_1,
        "orphan-call@1 call 'c1' to 'ls' has no result (nothing followed it in the run)",
        'truncated-tail@2 last line is cut short (no final newline, incomplete JSON): "{"run_id":"r1","kind":"tool_result","call_id":"c1","tool":"l…"',
        'truncated-tail@2 the gzip stream ends early (file cut short) (after line 2)',
      ],
    ],
  ];

  it.each(cases)('%s', async (file, code, calls, results, findings) => {
    const run = await auditJson([`${FIX}/${file}`]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(code);
    expect(run.report.summary.toolCalls).toBe(calls);
    expect(run.report.summary.toolResults).toBe(results);
    expect(brief(run.report)).toEqual(findings);
    expect(run.report.findings.every((f) => f.file === `${FIX}/${file}`)).toBe(true);
  });

  it('NaN, Infinity and -Infinity are refused as not JSON; 1e400, 9007199254740993, -0 and 1e-400 are read', async () => {
    const run = await auditJson([`${FIX}/numbers.jsonl`]);
    expect(run.code).toBe(1);
    const malformed = run.report.findings.filter((f) => f.ruleId === 'malformed-record').map((f) => f.line);
    expect(malformed).toEqual([3, 4, 5]);
    // The five numeric records are calls (n3..n7) with no result: read, not dropped.
    expect(run.report.findings.filter((f) => f.ruleId === 'orphan-call').map((f) => f.callId)).toEqual(['n3', 'n4', 'n5', 'n6', 'n7']);
    expect(run.report.summary.toolCalls).toBe(7);
  });

  it('a 1000:1 gzip bomb stops at the inflate cap and says so', async () => {
    const root = (await import('../helpers.js')).tempTree({ 'cap.yml': 'limits:\n  max-inflated-bytes: 65536\n' });
    const run = await auditJson([`${FIX}/gzip-bomb.jsonl.gz`], ['--config', `${root}/cap.yml`]);
    expect(run.report.summary.toolCalls).toBe(1);
    expect(run.report.summary.toolResults).toBe(1);
    const capped = run.report.findings.filter((f) => /limit of 65536 bytes/.test(f.message));
    expect(capped.map((f) => `${f.ruleId}@${f.line} ${f.message}`)).toEqual([
      'malformed-record@3 inflated size passed the limit of 65536 bytes (limits.max-inflated-bytes); reading stopped there (after line 3)',
    ]);
  });
});
