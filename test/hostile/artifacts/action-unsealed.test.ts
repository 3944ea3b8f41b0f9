import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { readZip } from '../../github/artifacts/read-zip.js';
import { pushToMain, useActionHarness } from '../../github/support/action-harness.js';
import { tempDir } from '../../helpers.js';
import { runInProcess } from '../audit-cli.js';

// The bundled Action against the loopback GitHub with a pull request's trace that has lines
// that are not records: its records are sealed as records, the lines are listed in the
// checkpoint and in seal-manifest.json, every collected file is in the manifest, and the
// uploaded seal verifies with the CLI.

const harness = useActionHarness();

const line = (record: unknown) => `${JSON.stringify(record)}\n`;
/** A call and its result, then `[]` and `7` (not records), then a second pair: lines 3 and 4 cannot be sealed. */
const MIXED =
  line({ run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'ls' }) +
  line({ run_id: 'r1', kind: 'tool_result', call_id: 'c1', tool: 'ls', result: { ok: true } }) +
  '[]\n7\n' +
  line({ run_id: 'r1', kind: 'tool_call', call_id: 'c2', tool: 'ls' }) +
  line({ run_id: 'r1', kind: 'tool_result', call_id: 'c2', tool: 'ls', result: { ok: true } });

describe('the Action seals a trace with lines that are not records', () => {
  it('as records, with the lines listed in the checkpoint and the manifest, and the seal verifies', async () => {
    const workspace = tempDir('ata-unsealed-job-');
    writeFileSync(join(workspace, 'mixed.jsonl'), MIXED);
    writeFileSync(join(workspace, 'clean.jsonl'), readFileSync('examples/clean/span-log.jsonl'));
    const result = await harness.run(910, { baseline: 'off', comment: 'false', traces: '*.jsonl', 'fail-on': 'never' }, { workspace, ...pushToMain('b'.repeat(40)) });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).not.toMatch(/could not upload|could not be sealed/);
    expect(result.stdout.split('\n').filter((l) => l.includes('not records'))).toEqual([
      'mixed.jsonl: 2 line(s) are not records, left out of its seal and listed in seal-manifest.json: line(s) 3, 4',
    ]);
    // The audit still reports the two lines.
    const report = reportSchema.parse(JSON.parse(readFileSync(result.outputs['report-json']!, 'utf8')));
    expect(report.findings.filter((f) => f.file === 'mixed.jsonl' && f.ruleId === 'malformed-record').map((f) => f.line)).toEqual([3, 4]);

    const uploaded = harness.gh.artifacts.filter((a) => a.runId === 910 && a.name === 'agent-trace-audit');
    expect(uploaded).toHaveLength(1);
    const files = readZip(await harness.azurite.read(uploaded[0]!.blob));
    const manifest = JSON.parse(files.get('seal-manifest.json')!.toString('utf8')) as {
      files: Array<{ file: string; finalDigest: string; sealed: string; checkpoint: string; unsealedLines?: Array<{ line: number; reason: string }> }>;
    };
    expect(manifest.files.map((f) => f.file)).toEqual(['clean.jsonl', 'mixed.jsonl']);
    expect(manifest.files[0]!.unsealedLines).toBeUndefined();
    const reasons = [
      { line: 3, reason: 'a record must be a JSON object, not an array' },
      { line: 4, reason: 'a record must be a JSON object, not a number' },
    ];
    expect(manifest.files[1]!.unsealedLines).toEqual(reasons);
    const mixed = manifest.files[1]!;
    const checkpoint = JSON.parse(files.get(mixed.checkpoint)!.toString('utf8')) as { kind?: string; records: number; unsealed_lines: unknown; final_digest: string };
    expect([checkpoint.kind, checkpoint.records, checkpoint.unsealed_lines, checkpoint.final_digest]).toEqual([undefined, 4, reasons, mixed.finalDigest]);
    // seal-digest: sha256 over "<final digest>  <file>\n" of each sealed file in name order, computed here.
    const digest = createHash('sha256');
    for (const f of manifest.files) digest.update(`${f.finalDigest}  ${f.file}\n`);
    expect(result.outputs['seal-digest']).toBe(`sha256:${digest.digest('hex')}`);

    // The uploaded seal, downloaded, verifies with the CLI, which names the two lines.
    const local = tempDir('ata-unsealed-download-');
    writeFileSync(join(local, 'sealed.jsonl'), files.get(mixed.sealed)!);
    writeFileSync(join(local, 'sealed.jsonl.seal.json'), files.get(mixed.checkpoint)!);
    const verified = await runInProcess(['verify', 'sealed.jsonl', '--checkpoint', 'sealed.jsonl.seal.json'], local);
    expect(verified.code).toBe(0);
    expect(verified.stdout.split('\n').filter((l) => /^(chain|records|unsealed line)/.test(l))).toEqual([
      'chain: intact',
      'records: 4',
      'unsealed line 3: a record must be a JSON object, not an array',
      'unsealed line 4: a record must be a JSON object, not a number',
    ]);
  }, 240_000);
});
