import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { unzipCapped } from '../../../src/github/artifacts/unzip-capped.js';
import { tempDir } from '../../helpers.js';

const MIB = 1024 * 1024;
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

/** Writes `entries` (name → text, in this order) as a zip and unpacks it into a fresh folder. */
async function unpack(entries: Array<[string, string]>) {
  const dir = tempDir();
  // fflate keeps the insertion order; a name ending in `/` with no bytes is a folder entry.
  writeFileSync(join(dir, 'x.zip'), zipSync(Object.fromEntries(entries.map(([name, text]) => [name, bytes(text)]))));
  const out = join(dir, 'out');
  mkdirSync(out);
  return { out, outcome: await unzipCapped(join(dir, 'x.zip'), out, MIB) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('a zip entry whose name is both a file and a folder', () => {
  it('the file comes first: it is skipped and named, the folder and every other file are unpacked', async () => {
    const { out, outcome } = await unpack([
      ['t.jsonl', '{"a":1}\n'],
      ['t.jsonl/inner.jsonl', '{"b":2}\n'],
      ['other.jsonl', '{"c":3}\n'],
    ]);
    expect(outcome).toEqual({ ok: true, files: 2, bytes: 16, refused: [], conflicts: ['t.jsonl'] });
    expect(filesUnder(out)).toEqual(['other.jsonl', join('t.jsonl', 'inner.jsonl')]);
    expect(readFileSync(join(out, 't.jsonl', 'inner.jsonl'), 'utf8')).toBe('{"b":2}\n');
  });

  it('the folder comes first: the same file is skipped (the outcome does not depend on the order)', async () => {
    const { out, outcome } = await unpack([
      ['run/a/x.jsonl', 'x\n'],
      ['run/a', 'file\n'],
      ['run/b.jsonl', 'b\n'],
    ]);
    expect(outcome).toEqual({ ok: true, files: 2, bytes: 4, refused: [], conflicts: ['run/a'] });
    expect(filesUnder(out)).toEqual([join('run', 'a', 'x.jsonl'), join('run', 'b.jsonl')]);
  });

  it('an explicit folder entry `a/` and a file `a`; a name written twice keeps its first entry', async () => {
    const dir = tempDir();
    // An object cannot hold one key twice: the duplicate is `./dup.jsonl`, which unpacks to the same path as `dup.jsonl`.
    writeFileSync(join(dir, 'x.zip'), zipSync({ 'a/': new Uint8Array(0), a: bytes('file'), 'dup.jsonl': bytes('one\n'), './dup.jsonl': bytes('two\n'), 'ok.jsonl': bytes('ok\n') }));
    mkdirSync(join(dir, 'out'));
    const outcome = await unzipCapped(join(dir, 'x.zip'), join(dir, 'out'), MIB);
    expect(outcome).toEqual({ ok: true, files: 2, bytes: 7, refused: [], conflicts: ['a', './dup.jsonl'] });
    expect(readFileSync(join(dir, 'out', 'dup.jsonl'), 'utf8')).toBe('one\n');
    expect(existsSync(join(dir, 'out', 'a'))).toBe(false);
    expect(filesUnder(join(dir, 'out'))).toEqual(['dup.jsonl', 'ok.jsonl']);
  });

  it('a name that leaves the folder is still refused apart from conflicts', async () => {
    const { outcome } = await unpack([
      ['../up.jsonl', 'no'],
      ['k', 'k'],
      ['k/v.jsonl', 'v\n'],
    ]);
    expect(outcome).toEqual({ ok: true, files: 1, bytes: 2, refused: ['../up.jsonl'], conflicts: ['k'] });
  });
});
