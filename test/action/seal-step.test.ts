import { createHash } from 'node:crypto';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sealInputs, sealStep, type SealFile } from '../../src/action/seal-step.js';
import type { Report } from '../../src/report/schema.js';
import { silentLogger, type Logger } from '../../src/logger.js';
import { tempDir, tempTree } from '../helpers.js';

// A stand-in with the seal module's contract (a copy + a checkpoint holding the file's sha256),
// to test the Action's plumbing around it: layout, manifest, combined digest, failures as warnings.
const sealByCopy: SealFile = async (path, outDir) => {
  const sealedPath = join(outDir, `${basename(path)}.sealed`);
  const checkpointPath = join(outDir, `${basename(path)}.checkpoint.json`);
  await copyFile(path, sealedPath);
  const finalDigest = `sha256:${createHash('sha256').update(await readFile(path)).digest('hex')}`;
  await writeFile(checkpointPath, JSON.stringify({ finalDigest }));
  return { sealedPath, checkpointPath, finalDigest };
};

describe('sealInputs', () => {
  it('seals each file in name order into its own folder, writes the manifest and one combined digest', async () => {
    const root = tempTree({ 'b.jsonl': 'b\n', 'a.jsonl': 'a\n' });
    const out = tempDir('ata-seal-');
    const inputs = [{ path: join(root, 'b.jsonl'), display: 'b.jsonl' }, { path: join(root, 'a.jsonl'), display: 'a.jsonl' }];
    const result = await sealInputs(inputs, out, sealByCopy, silentLogger);
    const da = `sha256:${createHash('sha256').update('a\n').digest('hex')}`;
    const db = `sha256:${createHash('sha256').update('b\n').digest('hex')}`;
    expect(result).toEqual({ sealed: 2, digest: `sha256:${createHash('sha256').update(`${da}  a.jsonl\n${db}  b.jsonl\n`).digest('hex')}`, redactedValues: 0, redactedFiles: 0 });
    expect(JSON.parse(readFileSync(join(out, 'seal-manifest.json'), 'utf8'))).toEqual({
      version: 1,
      redaction: { enabled: false, values: 0, files: 0 },
      files: [
        { file: 'a.jsonl', finalDigest: da, sealed: 'sealed/0001/a.jsonl.sealed', checkpoint: 'sealed/0001/a.jsonl.checkpoint.json' },
        { file: 'b.jsonl', finalDigest: db, sealed: 'sealed/0002/b.jsonl.sealed', checkpoint: 'sealed/0002/b.jsonl.checkpoint.json' },
      ],
    });
  });

  it('a file that cannot be sealed is a warning and listed in the manifest with its error; nothing sealed means no digest', async () => {
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warning: (m) => warnings.push(m) };
    const out = tempDir('ata-seal-');
    const failing: SealFile = async () => {
      throw new Error('disk full\nmore');
    };
    expect(await sealInputs([{ path: '/nonexistent', display: 'x.jsonl' }], out, failing, logger)).toEqual({ digest: '', sealed: 0, redactedValues: 0, redactedFiles: 0 });
    expect(warnings).toEqual(['1 of 1 file(s) could not be sealed: x.jsonl: disk full']);
    expect(JSON.parse(readFileSync(join(out, 'seal-manifest.json'), 'utf8'))).toEqual({ version: 1, redaction: { enabled: false, values: 0, files: 0 }, files: [{ file: 'x.jsonl', error: 'disk full' }] });
  });

  it('many files that cannot be sealed are one warning: three named, the rest in the log', async () => {
    const warnings: string[] = [];
    const infos: string[] = [];
    const logger: Logger = { ...silentLogger, warning: (m) => warnings.push(m), info: (m) => infos.push(m) };
    const failing: SealFile = async (_path, _dir, display) => {
      throw new Error(`cannot seal ${display}`);
    };
    const inputs = Array.from({ length: 18 }, (_, i) => ({ path: '/nonexistent', display: `t${String(i).padStart(2, '0')}.json` }));
    expect(await sealInputs(inputs, tempDir('ata-seal-'), failing, logger)).toEqual({ digest: '', sealed: 0, redactedValues: 0, redactedFiles: 0 });
    expect(warnings).toEqual(['18 of 18 file(s) could not be sealed: t00.json: cannot seal t00.json; t01.json: cannot seal t01.json; t02.json: cannot seal t02.json; and 15 more (listed in the log)']);
    expect(infos.filter((m) => m.startsWith('could not seal ')).length).toBe(15);
  });

  it('seal-redact false: the secrets the audit found are sealed as they are, and one warning says so; true: no warning, counts returned', async () => {
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warning: (m) => warnings.push(m) };
    const root = tempTree({ 'a.jsonl': 'a\n' });
    const report = { findings: [{ ruleId: 'secret-in-trace', file: 'a.jsonl' }, { ruleId: 'secret-in-trace', file: 'a.jsonl' }, { ruleId: 'orphan-call', file: 'b.jsonl' }] } as unknown as Report;
    const inputs = [{ path: join(root, 'a.jsonl'), display: 'a.jsonl' }];
    const off = await sealStep(inputs, tempDir('ata-seal-'), sealByCopy, logger, { redact: false, report });
    expect(warnings).toEqual(['seal-redact is false: 2 secret(s) the audit found in 1 file(s) are sealed as they are and uploaded in the artifact']);
    expect(off.sealRedacted).toBeUndefined();
    const on = await sealStep(inputs, tempDir('ata-seal-'), sealByCopy, logger, { redact: true, report });
    expect([warnings.length, on.sealRedacted]).toEqual([1, { values: 0, files: 0 }]);
  });
});
