import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeName } from '../../../src/github/artifacts/artifact-safe-names.js';
import { reportSchema } from '../../../src/report/schema.js';
import { readZip } from '../../github/artifacts/read-zip.js';
import { pushToMain, useActionHarness } from '../../github/support/action-harness.js';
import { tempDir } from '../../helpers.js';

// The bundled Action against the loopback GitHub (artifact service in Azurite) with
// three hostile inputs at once: a zip bomb among the trace artifacts, an artifact whose
// digest does not match, and a workspace trace named with `:`. The good traces are
// audited, each problem is reported once, and the uploaded artifact is complete.
const WRONG = `sha256:${'0'.repeat(64)}`;
const MIB = 1024 * 1024;

const harness = useActionHarness();

const count = (text: string, piece: string) => text.split(piece).length - 1;

describe('the Action facing a zip bomb, a wrong digest and a name with a colon', () => {
  it('audits the rest, reports each problem once, uploads a complete artifact', async () => {
    await harness.front.seed(900, 'agent-traces-good', { 'good.jsonl': 'examples/dirty/span-log-orphan.jsonl' });
    // 256 MiB of zeros in a zip of about 250 KB: its listed size passes artifacts-max-mb (16), its content does not.
    const bomb = await harness.front.seed(900, 'agent-traces-bomb', {}, { bytes: { 'bomb.jsonl': new Uint8Array(256 * MIB) } });
    expect(bomb.size).toBeLessThan(MIB);
    await harness.front.seed(900, 'agent-traces-wrong', { 'w.jsonl': 'examples/dirty/span-log-orphan.jsonl' }, { digest: WRONG });
    const workspace = tempDir('ata-audit-job-');
    writeFileSync(join(workspace, 'local:trace.jsonl'), readFileSync('examples/clean/span-log.jsonl'));
    const result = await harness.run(900, { baseline: 'off', comment: 'false', artifacts: 'agent-traces-*', traces: '*.jsonl', 'artifacts-max-mb': '16' }, { workspace, ...pushToMain() });
    const bombWarning = `::warning::refused artifact "agent-traces-bomb": it unpacks to more than 16.0 MiB, past artifacts-max-mb (16 MiB unpacked in all); unpacking stopped there and none of its files are audited`;
    const wrongWarning = `::warning::refused artifact "agent-traces-wrong": the download does not match the digest ${WRONG} the artifact service recorded; nothing of it was unpacked or audited`;
    expect(count(result.stdout, bombWarning)).toBe(1);
    expect(count(result.stdout, wrongWarning)).toBe(1);
    expect(result.stdout).not.toMatch(/could not upload|could not seal/);
    expect(result.stdout.split('\n').filter((l) => l.startsWith('::warning::'))).toEqual([bombWarning, wrongWarning]);

    const json = reportSchema.parse(JSON.parse(readFileSync(result.outputs['report-json']!, 'utf8')));
    expect(json.files.map((f) => f.path)).toEqual(['agent-traces-good/good.jsonl', 'local:trace.jsonl']);
    expect(json.artifacts?.map((a) => a.name)).toEqual(['agent-traces-good']);

    const uploaded = harness.gh.artifacts.filter((a) => a.runId === 900 && a.name === 'agent-trace-audit');
    expect(uploaded).toHaveLength(1);
    const files = readZip(await harness.azurite.read(uploaded[0]!.blob));
    const manifest = JSON.parse(files.get('seal-manifest.json')!.toString('utf8')) as { files: Array<{ file: string; sealed: string; checkpoint: string }> };
    expect(manifest.files.map((f) => f.file)).toEqual(['agent-traces-good/good.jsonl', 'local:trace.jsonl']);
    for (const entry of manifest.files) {
      expect(files.has(entry.sealed)).toBe(true);
      expect(files.has(entry.checkpoint)).toBe(true);
    }
    const names = JSON.parse(files.get('artifact-names.json')!.toString('utf8')) as { files: Array<{ stored: string; original: string }> };
    expect(names.files.map((f) => f.original)).toEqual(['sealed/0002/local:trace.sealed.jsonl', 'sealed/0002/local:trace.sealed.jsonl.seal.json']);
    expect(names.files.map((f) => f.stored)).toEqual(names.files.map((f) => safeName(f.original)));
    expect([...files.keys()].sort()).toEqual(
      ['agent-trace-audit-report.json', 'artifact-names.json', 'report.html', 'seal-manifest.json', ...manifest.files.flatMap((f) => [f.sealed, f.checkpoint])].sort(),
    );
    expect(result.outputs['seal-digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
  }, 240_000);
});
