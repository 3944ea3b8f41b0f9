import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempTree } from '../helpers.js';
import { auditJson, brief, callLine } from './audit-cli.js';

/**
 * Empty and whitespace-only lines cost next to nothing. The bound is 200 MiB/s;
 * measured on the loaded 2-core machine: 256 MiB of `\n` (gzipped) in 0.8 s (330 MiB/s),
 * 256 MiB of ` \t \r\n` lines in 1.4 s (185 MiB/s), both through the whole CLI (17 s for
 * 64 MiB before). The assertion allows a quarter of that rate for a busier machine; the
 * old cost per line was 60 times slower.
 */
const MIB = 1024 * 1024;
const MIN_RATE = 50; // MiB/s

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
    expect(run.report.files).toEqual([{ path: 'ws.jsonl', format: 'native-jsonl', records: 1, runs: 1, skipped: [] }]);
  }, 120_000);

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
