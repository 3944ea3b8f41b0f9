import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { safeName, withSafeNames } from '../../../src/github/artifacts/artifact-safe-names.js';
import { unzipCapped } from '../../../src/github/artifacts/unzip-capped.js';
import { tempDir } from '../../helpers.js';

const MIB = 1024 * 1024;

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

describe('unpacking a downloaded artifact zip is capped', () => {
  it('a 256 MiB zip bomb (about 250 KB) stops at the cap: no more than the cap is written', async () => {
    const dir = tempDir();
    const zip = zipSync({ 'a.jsonl': new Uint8Array(8), 'bomb.jsonl': new Uint8Array(256 * MIB) }, { level: 9 });
    expect(zip.length).toBeLessThan(400 * 1024);
    writeFileSync(join(dir, 'x.zip'), zip);
    mkdirSync(join(dir, 'out'));
    const outcome = await unzipCapped(join(dir, 'x.zip'), join(dir, 'out'), 4 * MIB);
    expect(outcome).toEqual({ ok: false, reason: `it unpacks to more than ${4 * MIB} bytes` });
    expect(folderBytes(join(dir, 'out'))).toBeLessThanOrEqual(4 * MIB);
  });

  it('a zip within the cap unpacks whole, byte for byte; names that leave the folder are refused', async () => {
    const dir = tempDir();
    const files = { 'run-a/t.jsonl': Buffer.from('{"a":1}\n'), 'x:y.jsonl': Buffer.from('{}\n'), '../escape.jsonl': Buffer.from('no'), '/abs.jsonl': Buffer.from('no'), 'empty.jsonl': Buffer.alloc(0) };
    writeFileSync(join(dir, 'x.zip'), zipSync(files));
    mkdirSync(join(dir, 'out'));
    const outcome = await unzipCapped(join(dir, 'x.zip'), join(dir, 'out'), MIB);
    expect(outcome).toEqual({ ok: true, files: 3, bytes: 11, refused: ['../escape.jsonl', '/abs.jsonl'], conflicts: [] });
    expect(readFileSync(join(dir, 'out', 'run-a', 't.jsonl'), 'utf8')).toBe('{"a":1}\n');
    expect(readFileSync(join(dir, 'out', 'x:y.jsonl'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(dir, 'escape.jsonl'))).toBe(false);
  });

  it('a file that is not a zip is refused with a reason', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'x.zip'), 'not a zip at all');
    expect(await unzipCapped(join(dir, 'x.zip'), dir, MIB)).toEqual({ ok: false, reason: 'not a readable zip (no end of central directory)' });
  });
});

describe('file names the artifact service refuses', () => {
  it('are stored under safe names, mapped back, and the seal manifest points at the stored names', async () => {
    const root = tempDir();
    const bad = ['sealed/0001/a:b.sealed.jsonl', 'sealed/0001/a:b.sealed.jsonl.seal.json', 'sealed/0002/q"<>|*?.sealed.jsonl', 'sealed/0003/c\rd\ne.sealed.jsonl'];
    for (const rel of [...bad, 'report.json', 'sealed/0004/fine.sealed.jsonl']) {
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), rel);
    }
    writeFileSync(join(root, 'seal-manifest.json'), JSON.stringify({ version: 1, files: [{ file: 'a:b.jsonl', finalDigest: 'f', sealed: bad[0], checkpoint: bad[1] }] }));
    const listed = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    const { files, renamed } = await withSafeNames(root, listed);
    expect(renamed.map((r) => r.original)).toEqual(bad);
    expect(renamed.map((r) => r.stored)).toEqual(bad.map(safeName));
    for (const { stored, original } of renamed) {
      expect(stored).not.toMatch(/[":<>|*?\r\n]/);
      expect(readFileSync(join(root, stored), 'utf8')).toBe(original);
    }
    expect(new Set(renamed.map((r) => r.stored)).size).toBe(4);
    expect(files.map((f) => f.slice(root.length + 1)).sort()).toEqual(
      ['artifact-names.json', 'report.json', 'seal-manifest.json', 'sealed/0004/fine.sealed.jsonl', ...renamed.map((r) => r.stored)].sort(),
    );
    expect(JSON.parse(readFileSync(join(root, 'artifact-names.json'), 'utf8'))).toEqual({ version: 1, files: renamed });
    const manifest = JSON.parse(readFileSync(join(root, 'seal-manifest.json'), 'utf8')) as { files: Array<{ file: string; sealed: string; checkpoint: string }> };
    expect(manifest.files).toEqual([{ file: 'a:b.jsonl', finalDigest: 'f', sealed: safeName(bad[0]!), checkpoint: safeName(bad[1]!) }]);
  });
});
