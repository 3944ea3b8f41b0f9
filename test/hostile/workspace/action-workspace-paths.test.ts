import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { readZip } from '../../github/artifacts/read-zip.js';
import { pushToMain, useActionHarness } from '../../github/support/action-harness.js';
import { hostileWorkspace } from './hostile-workspace.js';

// The bundled Action against the loopback GitHub, in a workspace whose pull request committed
// folder symlinks into .git, out of the workspace and into /proc: nothing behind them is read,
// listed, sealed or uploaded, each is one warning, and the step does not fail on them.

const harness = useActionHarness();

describe('the Action in a workspace with folder symlinks that lead out', () => {
  it('audits, seals and uploads only the workspace\'s own trace', async () => {
    const { workspace } = hostileWorkspace();
    const result = await harness.run(935, { baseline: 'off', comment: 'false', traces: 'traces/**\nout/**/*.jsonl\nproc/**\nmid/link/secret.jsonl\nreal/*.jsonl', 'fail-on': 'never' }, { workspace, ...pushToMain('c'.repeat(40)) });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout.split('\n').filter((l) => l.includes('skipped'))).toEqual([
      '::warning::skipped traces: refused: a symlink into .git',
      '::warning::skipped out: refused: a symlink that leaves the workspace',
      '::warning::skipped proc: refused: a symlink that leaves the workspace',
      '::warning::skipped mid/link/secret.jsonl: refused: a symlink that leaves the workspace',
    ]);
    const report = reportSchema.parse(JSON.parse(readFileSync(result.outputs['report-json']!, 'utf8')));
    expect(report.files.map((f) => f.path)).toEqual(['real/a.jsonl']);

    const uploaded = harness.gh.artifacts.filter((a) => a.runId === 935 && a.name === 'agent-trace-audit');
    expect(uploaded).toHaveLength(1);
    const files = readZip(await harness.azurite.read(uploaded[0]!.blob));
    const manifest = JSON.parse(files.get('seal-manifest.json')!.toString('utf8')) as { files: Array<{ file: string }> };
    expect(manifest.files.map((f) => f.file)).toEqual(['real/a.jsonl']);
    for (const [name, bytes] of files) expect(bytes.toString('latin1'), name).not.toMatch(/SENTINEL|extraheader|VmPeak/);
    for (const text of [result.stdout, result.summary]) expect(text).not.toMatch(/SENTINEL|extraheader/);
  }, 240_000);
});
