import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../../src/io/line-splitter.js';
import { tempTree } from '../../helpers.js';
import { auditJson, brief, callLine } from '../audit-cli.js';

/**
 * Empty and whitespace-only lines cost next to nothing. The bound is 200 MiB/s
 * end to end. The splitter compares a stretch of blank lines with its repeating blank
 * line natively: alone it counts 64 MiB of `\n`, ` \n` or ` \t \r\n` at 0.9-3 GB/s on
 * the loaded 2-core machine (load average 15), and is held here to 200 MiB/s, a tenth
 * of that. Through the whole CLI (in-process, gzip included) the assertion allows 25 MiB/s
 * for a busy machine: 17 s for 64 MiB before the first fix (3.8 MiB/s) still fails it.
 */
const MIB = 1024 * 1024;
const MIN_RATE = 25; // MiB/s, through the CLI
const MIN_SPLIT_RATE = 200; // MiB/s, the splitter alone

async function timedAudit(name: string, bytes: Buffer, extra: string[] = []) {
  const root = tempTree({ [name]: bytes });
  const started = performance.now();
  const run = await auditJson([name], extra, root);
  return { ...run, seconds: (performance.now() - started) / 1000 };
}

describe('newline bombs', () => {
  it('64 MiB of newlines in a 65 KB .gz, then one record: read fast, the record at its line', async () => {
    const size = 64 * MIB;
    const text = Buffer.concat([Buffer.alloc(size, 0x0a), Buffer.from(`${callLine('c1')}\n`)]);
    const gz = gzipSync(text, { level: 9 });
    expect(gz.length).toBeLessThan(100 * 1024);
    const run = await timedAudit('nl.jsonl.gz', gz);
    expect(size / MIB / run.seconds).toBeGreaterThan(MIN_RATE);
    expect(run.report.summary).toMatchObject({ files: 1, runs: 1, toolCalls: 1 });
    expect(brief(run.report)).toEqual([
      `catalog-missing@${size + 1} run has 1 tool call but no catalog record: nothing to check the tool names against`,
      `orphan-call@${size + 1} call 'c1' to 'ls' has no result (nothing followed it in the run)`,
    ]);
  }, 120_000);

  it('64 MiB of lines of spaces, tabs and CRLF, a record in the middle', async () => {
    const lines = Math.floor((32 * MIB) / 5);
    const half = Buffer.from(' \t \r\n'.repeat(lines));
    const run = await timedAudit('ws.jsonl', Buffer.concat([half, Buffer.from(`${callLine('c1')}\n`), half]));
    expect((2 * half.length) / MIB / run.seconds).toBeGreaterThan(MIN_RATE);
    expect(brief(run.report)).toEqual([
      `catalog-missing@${lines + 1} run has 1 tool call but no catalog record: nothing to check the tool names against`,
      `orphan-call@${lines + 1} call 'c1' to 'ls' has no result (nothing followed it in the run)`,
    ]);
    expect(run.report.files).toEqual([{ path: 'ws.jsonl', format: 'native-jsonl', records: 1, runs: 1, skipped: [], toolCalls: 1, toolResults: 0 }]);
  }, 120_000);

  it('64 MiB of " \\n" lines, then one record', async () => {
    const size = 64 * MIB;
    const run = await timedAudit('sp.jsonl', Buffer.concat([Buffer.from(' \n'.repeat(size / 2)), Buffer.from(`${callLine('c1')}\n`)]));
    expect(size / MIB / run.seconds).toBeGreaterThan(MIN_RATE);
    expect(run.report.files).toEqual([{ path: 'sp.jsonl', format: 'native-jsonl', records: 1, runs: 1, skipped: [], toolCalls: 1, toolResults: 0 }]);
    expect(brief(run.report)[0]).toBe(`catalog-missing@${size / 2 + 1} run has 1 tool call but no catalog record: nothing to check the tool names against`);
  }, 120_000);

  it.each([
    ['newlines', '\n'],
    ['spaces', ' \n'],
    ['spaces, tabs and CRLF', ' \t \r\n'],
  ])('the splitter alone counts 64 MiB of blank lines (%s) at 200 MiB/s or more', (_name, blank) => {
    const bytes = Buffer.from(blank.repeat(Math.floor((64 * MIB) / blank.length)));
    const facts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
    const splitter = new LineSplitter(16 * MIB, facts);
    const started = performance.now();
    let events = 0;
    for (let i = 0; i < bytes.length; i += MIB) events += splitter.split(bytes.subarray(i, i + MIB)).length;
    expect(splitter.end()).toBeNull();
    const seconds = (performance.now() - started) / 1000;
    expect(events).toBe(0);
    expect(facts.lines).toBe(bytes.length / blank.length);
    expect(bytes.length / MIB / seconds).toBeGreaterThan(MIN_SPLIT_RATE);
  });

  it('the inflate cap is a setting: limits.max-inflated-bytes stops a .gz there and says so', async () => {
    const gz = gzipSync(Buffer.concat([Buffer.from(`${callLine('c1')}\n`), Buffer.alloc(8 * MIB, 0x0a)]));
    const root = tempTree({ 'agent-trace-audit.yml': 'limits:\n  max-inflated-bytes: 1048576\n', 'cap.jsonl.gz': gz });
    const { report } = await auditJson(['cap.jsonl.gz'], [], root);
    // The record's line, then newlines up to the cap: each is a line.
    const lines = 1 + (1048576 - (callLine('c1').length + 1));
    expect(brief(report).filter((f) => f.includes('limits.max-inflated-bytes'))).toEqual([
      `malformed-record@${lines} inflated size passed the limit of 1048576 bytes (limits.max-inflated-bytes); reading stopped there (after line ${lines})`,
    ]);
  });
});
