import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { fileSink, readCheckpoint, sealFile, verifyFile } from '../../src/seal/index.js';
import { tempTree } from '../helpers.js';

const DIR = 'test/fixtures/seal';
const CHECKPOINT = `${DIR}/sealed.jsonl.seal.json`;

/**
 * The algorithm of docs/sealing.md written again from the page, sharing no
 * code with src/seal: a line is `{"prev":"P","digest":"D"` + (`}` | `,` M `}`),
 * D = SHA-256(P \n n \n {M}). Returns what the Python script would print first.
 */
function documentedVerify(sealed: Buffer, checkpoint: { records: number; final_digest: string; sealed_sha256: string } | null): string {
  const link = /^\{"prev":"([0-9a-f]{64})","digest":"([0-9a-f]{64})"(?:,(.+))?\}$/s;
  const text = sealed.toString('latin1'); // one char per byte, so the regex sees bytes
  const lines = text.split('\n');
  const last = lines.pop()!;
  const expected = checkpoint ? checkpoint.records : -1;
  let prev = '0'.repeat(64);
  let atMark: string | null = expected === 0 ? prev : null;
  let count = 0;
  // A last line without its LF is not a link (null).
  for (const line of last === '' ? lines : [...lines, null]) {
    const m = line === null ? null : link.exec(line);
    const digest = m && createHash('sha256').update(Buffer.from(`${prev}\n${count}\n{${m[3] ?? ''}}`, 'latin1')).digest('hex');
    if (!m || m[1] !== prev || m[2] !== digest) {
      return checkpoint && count >= expected && atMark === checkpoint.final_digest ? 'appended' : `broken at index ${count}`;
    }
    prev = digest!;
    count += 1;
    if (count === expected) atMark = prev;
  }
  if (!checkpoint) return 'intact';
  const fileSha = createHash('sha256').update(sealed).digest('hex');
  if (count === expected && prev === checkpoint.final_digest && fileSha === checkpoint.sealed_sha256) return 'intact';
  if (count < expected) return 'truncated';
  return count > expected && atMark === checkpoint.final_digest ? 'appended' : 'swapped';
}

const CASES: Array<[file: string, without: string, withCheckpoint: string]> = [
  ['sealed.jsonl', 'intact', 'intact'],
  ['tampered-edited.jsonl', 'broken at index 1', 'broken at index 1'],
  ['tampered-deleted.jsonl', 'broken at index 2', 'broken at index 2'],
  ['tampered-reordered.jsonl', 'broken at index 1', 'broken at index 1'],
  ['tampered-duplicated.jsonl', 'broken at index 3', 'broken at index 3'],
  ['tampered-truncated.jsonl', 'intact', 'truncated'],
  ['tampered-appended.jsonl', 'intact', 'appended'],
  ['tampered-resealed.jsonl', 'intact', 'swapped'],
];

describe('golden vectors (test/fixtures/seal)', () => {
  it('sealing source.jsonl reproduces sealed.jsonl and its checkpoint byte for byte', async () => {
    const root = tempTree({});
    const out = join(root, 'sealed.jsonl');
    await sealFile({ path: `${DIR}/source.jsonl`, display: 'source.jsonl', sink: await fileSink(out, 'sealed.jsonl'), checkpointPath: `${out}.seal.json`, checkpointDisplay: 'sealed.jsonl.seal.json', mode: 'jcs', limits: DEFAULT_LIMITS, env: {} });
    expect(readFileSync(out).equals(readFileSync(`${DIR}/sealed.jsonl`))).toBe(true);
    expect(readFileSync(`${out}.seal.json`, 'utf8')).toBe(readFileSync(CHECKPOINT, 'utf8'));
  });

  it.each(CASES)('%s: the documented algorithm says %s / %s', (file, without, withCheckpoint) => {
    const bytes = readFileSync(`${DIR}/${file}`);
    const checkpoint = JSON.parse(readFileSync(CHECKPOINT, 'utf8')) as { records: number; final_digest: string; sealed_sha256: string };
    expect(documentedVerify(bytes, null)).toBe(without);
    expect(documentedVerify(bytes, checkpoint)).toBe(withCheckpoint);
  });

  it.each(CASES)('%s: verify agrees with the documented algorithm', async (file, without, withCheckpoint) => {
    const status = (v: Awaited<ReturnType<typeof verifyFile>>) => (v.status === 'broken' ? `broken at index ${v.broken!.index}` : v.status);
    expect(status(await verifyFile(`${DIR}/${file}`, file, null, DEFAULT_LIMITS))).toBe(without);
    const checkpoint = await readCheckpoint(CHECKPOINT, 'sealed.jsonl.seal.json');
    expect(status(await verifyFile(`${DIR}/${file}`, file, checkpoint, DEFAULT_LIMITS))).toBe(withCheckpoint);
  });

  it('docs/sealing.md shows exactly the committed Python verifier', () => {
    const script = readFileSync('docs/verify_sealed.py', 'utf8');
    expect(readFileSync('docs/sealing.md', 'utf8')).toContain(`\`\`\`python\n${script}\`\`\``);
  });
});
