import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { createChainVerifier, formatVerdict, readCheckpoint, splitRawLines, verdictExitCode, verifyFile, type Checkpoint } from '../../src/seal/index.js';
import { tempTree } from '../helpers.js';

const DIR = 'test/fixtures/seal';
const FINAL = 'a2e9cfe7510b09b8766a86fd3e1eeddc000b471f38ca81fed2ea6b1d22b30716';
const checkpoint = (): Promise<Checkpoint> => readCheckpoint(`${DIR}/sealed.jsonl.seal.json`, 'sealed.jsonl.seal.json');
const report = async (file: string, cp: Checkpoint | null) => {
  const verdict = await verifyFile(`${DIR}/${file}`, file, cp, DEFAULT_LIMITS);
  return { text: formatVerdict(verdict), code: verdictExitCode(verdict) };
};

describe('verify report', () => {
  it('intact without a checkpoint says that a cut tail cannot be ruled out', async () => {
    expect(await report('sealed.jsonl', null)).toEqual({
      code: 0,
      text: `chain: intact\nrecords: 5\nfinal digest: ${FINAL}\nnote: no checkpoint given, so lines cut from the end of the file cannot be ruled out (pass --checkpoint <file>.seal.json)\n`,
    });
  });

  it('intact with its checkpoint', async () => {
    expect(await report('sealed.jsonl', await checkpoint())).toEqual({
      code: 0,
      text: `chain: intact\nrecords: 5\nfinal digest: ${FINAL}\ncheckpoint: jcs form, 5 record(s), matches\nkind: records: one canonical record per line of the trace\n`,
    });
  });

  it('broken: first broken link, expected and found digests, and why', async () => {
    expect(await report('tampered-edited.jsonl', await checkpoint())).toEqual({
      code: 1,
      text: [
        'chain: broken',
        'first broken link: index 1',
        'expected: 4040d5f72ec2336e7a64e4d8400e3fe9ad2a8697951ccf98436168b705fd29c6',
        'found: 02ff8f8aa3fff37ec6c576b2da55b9bd75c3cf3148263418d96ab6b46f0cf83e',
        'reason: line 2: "digest" does not match the record (the record or its digest was edited)',
        'checkpoint: jcs form, 5 record(s)',
        'kind: records: one canonical record per line of the trace',
        '',
      ].join('\n'),
    });
    expect((await report('tampered-deleted.jsonl', null)).text).toBe(
      [
        'chain: broken',
        'first broken link: index 2',
        'expected: 02ff8f8aa3fff37ec6c576b2da55b9bd75c3cf3148263418d96ab6b46f0cf83e',
        'found: e0dbdad5c6b5372cc8766bc212c0fbe924bf5785e15b88aea9f82a9f491521a8',
        'reason: line 3: "prev" is not the digest of line 2 (a line was removed, inserted or moved here)',
        'note: no checkpoint given, so lines cut from the end of the file cannot be ruled out (pass --checkpoint <file>.seal.json)',
        '',
      ].join('\n'),
    );
  });

  it('truncated, appended and swapped against the checkpoint', async () => {
    const cp = await checkpoint();
    expect(await report('tampered-truncated.jsonl', cp)).toEqual({
      code: 1,
      text: 'chain: truncated\nrecords: expected 5, found 3\nreason: the last 2 record(s) of the sealed chain are missing; the 3 present are intact\ncheckpoint: jcs form, 5 record(s)\nkind: records: one canonical record per line of the trace\n',
    });
    expect(await report('tampered-appended.jsonl', cp)).toEqual({
      code: 1,
      text: 'chain: appended\nrecords: expected 5, found 6\nfirst appended link: index 5\nreason: the first 5 record(s) match the checkpoint; 1 line(s) were added after them\ncheckpoint: jcs form, 5 record(s)\nkind: records: one canonical record per line of the trace\n',
    });
    expect(await report('tampered-resealed.jsonl', cp)).toEqual({
      code: 1,
      text: [
        'chain: swapped',
        'records: expected 5, found 5',
        `expected: ${FINAL}`,
        'found: 9f8f725faf0262d3dac97bce883c19139888202bd752cb4533c186b17e9a721b',
        "reason: the final digest is not the checkpoint's: this is not the file the checkpoint was made for",
        'checkpoint: jcs form, 5 record(s)',
        'kind: records: one canonical record per line of the trace',
        '',
      ].join('\n'),
    });
  });

  it('a chain identical to the checkpoint but other file bytes is swapped; GitHub provenance is shown', async () => {
    const cp: Checkpoint = { ...(await checkpoint()), sealed_sha256: 'f'.repeat(64), github: { repository: 'o/r', commit: 'a'.repeat(40), run_id: '77', run_attempt: '2' } };
    const { text, code } = await report('sealed.jsonl', cp);
    expect(code).toBe(1);
    expect(text).toContain(`reason: the file's SHA-256 is not the checkpoint's sealed_sha256: this is not the file the checkpoint was made for\n`);
    expect(text).toContain(`expected: ${'f'.repeat(64)}\nfound: e9e0e5d77745120947c2e99e377ea1e117ef078bdf050734a7e481c2f2d478fe\n`);
    expect(text).toContain(`sealed in: GitHub Actions o/r at ${'a'.repeat(40)}, run 77 attempt 2\n`);
  });

  it('a sealed file compressed after sealing verifies against the same checkpoint', async () => {
    const root = tempTree({ 'sealed.jsonl.gz': gzipSync(readFileSync(`${DIR}/sealed.jsonl`)) });
    const verdict = await verifyFile(`${root}/sealed.jsonl.gz`, 'sealed.jsonl.gz', await checkpoint(), DEFAULT_LIMITS);
    expect(verdict.status).toBe('intact');
  });

  it('a gzip stream cut short is unreadable input (exit 2), not a verdict', async () => {
    const gz = gzipSync(readFileSync(`${DIR}/sealed.jsonl`));
    const root = tempTree({ 'cut.jsonl.gz': gz.subarray(0, gz.length - 30) });
    await expect(verifyFile(`${root}/cut.jsonl.gz`, 'cut.jsonl.gz', null, DEFAULT_LIMITS)).rejects.toThrow(
      expect.objectContaining({ code: 'unreadable', message: 'cut.jsonl.gz: cannot be verified: the gzip stream ends early (file cut short)' }),
    );
    await expect(verifyFile(`${root}/missing.jsonl`, 'missing.jsonl', null, DEFAULT_LIMITS)).rejects.toThrow('no such file or directory: "missing.jsonl"');
  });
});

describe('chain verifier edge cases', () => {
  const sealed = readFileSync(`${DIR}/sealed.jsonl`);
  const walk = async (bytes: Buffer, max = 1 << 20, mark: number | null = null) => {
    const verifier = createChainVerifier(mark);
    async function* one() {
      yield bytes;
    }
    for await (const line of splitRawLines(one(), max)) verifier.push(line);
    return verifier.result();
  };

  it('a last line without its newline is broken there', async () => {
    const result = await walk(sealed.subarray(0, sealed.length - 1));
    expect(result.broken).toMatchObject({ index: 4, reason: 'line 5 has no newline at its end (the file was cut here)' });
    expect(result.intact).toBe(4);
  });

  it('a blank line, a CR, or a line over the cap is not a link', async () => {
    const lines = sealed.toString('utf8').split('\n');
    const blank = await walk(Buffer.from([lines[0], '', ...lines.slice(1)].join('\n')));
    expect(blank.broken).toMatchObject({ index: 1, found: null, reason: 'line 2 is not a sealed link: it does not start with {"prev":"' });
    const cr = await walk(Buffer.from(lines.join('\r\n')));
    expect(cr.broken).toMatchObject({ index: 0, reason: "line 1 ends with a CR byte (0x0D) before its LF: the file's line ends were changed to CRLF after sealing, and every byte of a sealed line is sealed" });
    const long = await walk(sealed, 270);
    expect(long.broken).toMatchObject({ index: 1, reason: 'line 2 is 274 bytes long, more than a sealed record can be' });
    expect(long.lines).toBe(5);
  });

  it('an empty file is an intact chain of no records, and matches a checkpoint of 0 records', async () => {
    const result = await walk(Buffer.alloc(0), 100, 0);
    expect(result).toEqual({ lines: 0, intact: 0, finalDigest: '0'.repeat(64), broken: null, markDigest: '0'.repeat(64), anyLink: false });
  });
});
