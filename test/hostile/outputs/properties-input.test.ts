import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { runBundle } from '../../cli/run-cli.js';
import { tempTree } from '../../helpers.js';
import { auditOne } from './property-run.js';

const RUNS = Number(process.env["ATA_PROP_RUNS"] ?? 120);

// Valid records of several dialects: the arbitrary bytes below are cut, spliced and mutated from these.
const SEED_LINES = [
  { run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'ls', deadline_ms: 10 },
  { run_id: 'r1', kind: 'tool_result', call_id: 'c1', tool: 'ls', result: { ok: true } },
  { type: 'catalog', run_id: 'run-1', catalog_names: ['ls', 'grep'] },
  { type: 'tool_call', run_id: 'run-1', tool_call_id: 'x', name: 'grep', arguments: { q: 1 } },
  { type: 'tool_result', run_id: 'run-1', tool_call_id: 'x', name: 'grep', exit_code: 1, output_head: 'Traceback (most recent call last):' },
].map((record) => JSON.stringify(record));

/** Bytes of every kind: random, JSON-ish pieces, valid lines spliced with noise, gzip of any of these. */
const traceBytes: fc.Arbitrary<Uint8Array> = fc
  .oneof(
    fc.uint8Array({ maxLength: 600 }),
    fc
      .array(
        fc.oneof(
          fc.constantFrom(...SEED_LINES, '{', '}', '[', ']', '"', '\\', ':', ',', '\n', '\r', '\r\n', '\u0000', '\ufeff', '\\u0000', '\\ud800', 'NaN', '1e400', '{"a":1,"a":2}', '__proto__'),
          fc.string({ maxLength: 20, unit: 'binary' }),
          fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b).toString('latin1')),
        ),
        { maxLength: 40 },
      )
      .map((parts) => new Uint8Array(Buffer.from(parts.join(''), 'utf8'))),
    fc
      .tuple(fc.array(fc.constantFrom(...SEED_LINES), { minLength: 1, maxLength: 8 }), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 6 }))
      .map(([lines, at, noise]) => {
        const bytes = Buffer.from(`${lines.join('\n')}\n`);
        const cut = at % (bytes.length + 1);
        return new Uint8Array(Buffer.concat([bytes.subarray(0, cut), Buffer.from(noise), bytes.subarray(cut)]));
      }),
  )
  .chain((bytes) => fc.constantFrom(bytes, new Uint8Array(gzipSync(bytes)), new Uint8Array(gzipSync(bytes)).subarray(0, 20)));

/** A record of a known dialect with one field (or a new one) set to any JSON value. */
const recordWithAnyField: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...SEED_LINES), fc.oneof(fc.constantFrom('run_id', 'kind', 'call_id', 'tool', 'type', 'tool_call_id', 'name', 'arguments', 'result', 'catalog_names', 'exit_code', 'output_head', 'deadline_ms', '__proto__', 'constructor'), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 4 }))
  .map(([line, key, value]) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    Object.defineProperty(record, key, { value, enumerable: true, configurable: true, writable: true });
    return JSON.stringify(record);
  });

describe('property: any input the CLI is given', () => {
  it('arbitrary bytes as a trace file: exit 0, 1 or 2, never a crash, the JSON report validates', async () => {
    await fc.assert(
      fc.asyncProperty(traceBytes, fc.constantFrom('t.jsonl', 't.jsonl.gz', 't.json'), async (bytes, name) => {
        await auditOne(name, bytes);
      }),
      { seed: Number(process.env["ATA_PROP_SEED"] ?? 20261129), numRuns: RUNS },
    );
  }, 120_000);

  it('arbitrary JSON values in any record field: exit 0 or 1, the JSON report validates', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recordWithAnyField, { minLength: 1, maxLength: 6 }), async (lines) => {
        const outcome = await auditOne('t.jsonl', `${SEED_LINES.slice(0, 3).join('\n')}\n${lines.join('\n')}\n`);
        expect([0, 1]).toContain(outcome.code);
        expect(outcome.report!.files).toHaveLength(1);
      }),
      { seed: Number(process.env["ATA_PROP_SEED"] ?? 7301), numRuns: RUNS },
    );
  }, 120_000);

  it('a handful through the real bundle (dist/cli.js, with its worker pool): same promise', () => {
    const samples = fc.sample(traceBytes, { seed: 42, numRuns: 6 });
    const root = tempTree(Object.fromEntries(samples.map((bytes, i) => [`t${i}.jsonl`, bytes])));
    const run = runBundle(['audit', '.', '--format', 'json', '--jobs', '2'], root, { AGENT_TRACE_AUDIT_POOL_MIN_BYTES: '0' });
    expect([0, 1]).toContain(run.code);
    expect(run.stderr).not.toMatch(/\n\s+at |internal-error/);
    const report = reportSchema.parse(JSON.parse(run.stdout));
    expect(report.files.map((f) => f.path)).toEqual(samples.map((_, i) => `t${i}.jsonl`));
  });
});
