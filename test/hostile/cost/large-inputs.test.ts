import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempTree } from '../../helpers.js';
import { auditJson, brief, bundleWithPeak, callLine, resultLine } from '../audit-cli.js';

describe('hostile sizes', () => {
  it('a 200 MB single line is reported, reading resumes at the next line, and peak memory stays far below the line', () => {
    const root = tempTree({});
    const path = join(root, 'big.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, `${callLine('c1')}\n{"run_id":"r1","kind":"tool_call","call_id":"big","tool":"`);
    const mib = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 200; i += 1) writeSync(fd, mib);
    writeSync(fd, `"}\n${resultLine('c1')}\n`);
    closeSync(fd);

    const run = bundleWithPeak(['audit', 'big.jsonl', '--format', 'json', '--jobs', '1'], root);
    rmSync(root, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = reportSchema.parse(JSON.parse(run.stdout));
    expect(brief(report)).toEqual([
      'catalog-missing@1 run has 1 tool call but no catalog record: nothing to check the tool names against',
      'malformed-record@2 line of 209715260 bytes is longer than the limit of 16777216 bytes (limits.max-line-bytes)',
    ]);
    // Line 3 (the result of c1) was read after the long line: no orphan, one result.
    expect(report.summary).toMatchObject({ toolCalls: 1, toolResults: 1 });
    // Measured: about 100 MiB peak for a 200 MiB line (the Node baseline is about 60 MiB).
    expect(run.peakKiB).toBeGreaterThan(0);
    expect(run.peakKiB).toBeLessThan(160 * 1024);
  }, 120_000);

  it('100,000 levels of nesting (array and object) are refused per line, the records around them are read', async () => {
    const root = tempTree({
      'deep.jsonl': `${callLine('c1')}\n${'['.repeat(100_000)}${']'.repeat(100_000)}\n${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}\n${resultLine('c1')}\n`,
    });
    const run = await auditJson(['deep.jsonl'], [], root);
    expect(run.code).toBe(1);
    expect(brief(run.report)).toEqual([
      'catalog-missing@1 run has 1 tool call but no catalog record: nothing to check the tool names against',
      'malformed-record@2 JSON nesting deeper than 256 levels: "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…"',
      // 100,000 nested objects are 100,000 keys too: counted on the text before the parser nests them.
      'too-many-keys@3 record has 100000 object keys, more than the limit of 10000 keys (limits.max-record-keys); it was not read',
    ]);
    expect(run.report.summary).toMatchObject({ toolCalls: 1, toolResults: 1 });
  });
});
