import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCheckpoint, createChainVerifier, judge, sealText, splitRawLines, type Checkpoint, type Verdict } from '../../src/seal/index.js';

// Property tests over the whole chain: seal in memory, tamper with the bytes, verify.
const SEED = 20261129;
const RUNS = 150;

const key = fc.string({ unit: 'binary', maxLength: 6 }).filter((k) => k !== 'prev' && k !== 'digest');
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  // Doubles whose JSON text is an integer past 2^53 are refused by sealing; keep them out here.
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d) || Number.isSafeInteger(d)),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
}));
const record = fc.dictionary(key, value, { maxKeys: 5 });
const records = fc.array(record, { minLength: 1, maxLength: 8 });

interface Sealed {
  readonly bytes: Buffer;
  readonly lines: Buffer[];
  readonly checkpoint: Checkpoint;
}

function seal(recs: Array<Record<string, unknown>>): Sealed {
  const source = recs.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const { sealed, records: count, finalDigest } = sealText(source, 'trace.jsonl');
  const bytes = Buffer.from(sealed, 'utf8');
  const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
  const checkpoint = buildCheckpoint({ mode: 'jcs', records: count, finalDigest, sealedSha256: sha(bytes), sourceSha256: sha(source) }, {});
  return { bytes, lines: sealed.split('\n').slice(0, -1).map((l) => Buffer.from(`${l}\n`, 'utf8')), checkpoint };
}

/** Verifies bytes fed in chunks of the given sizes (to exercise line splitting across chunk borders). */
async function verify(bytes: Buffer, checkpoint: Checkpoint | null, chunk = 7): Promise<Verdict> {
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const verifier = createChainVerifier(checkpoint?.records ?? null);
  for await (const line of splitRawLines(chunks(), 1 << 20)) verifier.push(line);
  return judge(verifier.result(), createHash('sha256').update(bytes).digest('hex'), checkpoint);
}

const outcome = (v: Verdict) => (v.status === 'broken' ? `broken at ${v.broken!.index}` : v.status);
const params = { seed: SEED, numRuns: RUNS };

describe('seal then verify (fast-check, fixed seed)', () => {
  it('an untouched sealed file is intact, with and without its checkpoint, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(records, fc.integer({ min: 1, max: 64 }), async (recs, chunk) => {
        const s = seal(recs);
        expect(s.checkpoint.records).toBe(recs.length);
        const v = await verify(s.bytes, null, chunk);
        expect(outcome(v)).toBe('intact');
        expect(v.chain.finalDigest).toBe(s.checkpoint.final_digest);
        expect(outcome(await verify(s.bytes, s.checkpoint, chunk))).toBe('intact');
      }),
      params,
    );
  });

  it('flipping any byte breaks the chain at the line that holds it', async () => {
    await fc.assert(
      fc.asyncProperty(records, fc.nat(), fc.integer({ min: 1, max: 255 }), async (recs, at, delta) => {
        const s = seal(recs);
        const pos = at % s.bytes.length;
        const bytes = Buffer.from(s.bytes);
        bytes[pos] = (bytes[pos]! + delta) % 256;
        const index = s.bytes.subarray(0, pos).filter((b) => b === 0x0a).length;
        expect(outcome(await verify(bytes, null))).toBe(`broken at ${index}`);
        expect(outcome(await verify(bytes, s.checkpoint))).toBe(`broken at ${index}`);
      }),
      params,
    );
  });

  it('deleting a line breaks the chain there; deleting the last is caught only as truncation', async () => {
    await fc.assert(
      fc.asyncProperty(records, fc.nat(), async (recs, at) => {
        const s = seal(recs);
        const i = at % s.lines.length;
        const bytes = Buffer.concat(s.lines.filter((_, k) => k !== i));
        const last = i === s.lines.length - 1;
        expect(outcome(await verify(bytes, null))).toBe(last ? 'intact' : `broken at ${i}`);
        expect(outcome(await verify(bytes, s.checkpoint))).toBe(last ? 'truncated' : `broken at ${i}`);
      }),
      params,
    );
  });

  it('swapping two lines breaks the chain at the first of them', async () => {
    await fc.assert(
      fc.asyncProperty(records.filter((r) => r.length >= 2), fc.nat(), fc.nat(), async (recs, a, b) => {
        const s = seal(recs);
        const i = a % (s.lines.length - 1);
        const j = i + 1 + (b % (s.lines.length - 1 - i));
        const lines = [...s.lines];
        [lines[i], lines[j]] = [lines[j]!, lines[i]!];
        expect(outcome(await verify(Buffer.concat(lines), null))).toBe(`broken at ${i}`);
        expect(outcome(await verify(Buffer.concat(lines), s.checkpoint))).toBe(`broken at ${i}`);
      }),
      params,
    );
  });

  it('duplicating a line breaks the chain at the copy; a copy of the last line is appended', async () => {
    await fc.assert(
      fc.asyncProperty(records, fc.nat(), async (recs, at) => {
        const s = seal(recs);
        const i = at % s.lines.length;
        const lines = [...s.lines.slice(0, i + 1), s.lines[i]!, ...s.lines.slice(i + 1)];
        const bytes = Buffer.concat(lines);
        expect(outcome(await verify(bytes, null))).toBe(`broken at ${i + 1}`);
        expect(outcome(await verify(bytes, s.checkpoint))).toBe(i === s.lines.length - 1 ? 'appended' : `broken at ${i + 1}`);
      }),
      params,
    );
  });

  it('appending any line (a copy, arbitrary text, or a validly chained record) is caught; the checkpoint names it', async () => {
    const extra = fc.oneof(
      fc.nat().map((n) => ({ kind: 'copy' as const, n })),
      fc.string({ unit: 'binary', maxLength: 40 }).map((text) => ({ kind: 'text' as const, text })),
      record.map((r) => ({ kind: 'chained' as const, r })),
    );
    await fc.assert(
      fc.asyncProperty(records, extra, async (recs, add) => {
        const s = seal(recs);
        let bytes: Buffer;
        if (add.kind === 'chained') bytes = seal([...recs, add.r]).bytes;
        else if (add.kind === 'copy') bytes = Buffer.concat([s.bytes, s.lines[add.n % s.lines.length]!]);
        else bytes = Buffer.concat([s.bytes, Buffer.from(`${add.text.replace(/\n/g, ' ')}\n`, 'utf8')]);
        // Only a line that continues the chain correctly passes without the checkpoint.
        expect(outcome(await verify(bytes, null))).toBe(add.kind === 'chained' ? 'intact' : `broken at ${recs.length}`);
        const v = await verify(bytes, s.checkpoint);
        expect(outcome(v)).toBe('appended');
        expect(v.chain.lines).toBe(recs.length + 1);
      }),
      params,
    );
  });

  it('cutting the last k lines leaves an intact chain, and the checkpoint reports the cut', async () => {
    await fc.assert(
      fc.asyncProperty(records, fc.nat(), async (recs, at) => {
        const s = seal(recs);
        const k = 1 + (at % s.lines.length);
        const bytes = Buffer.concat(s.lines.slice(0, s.lines.length - k));
        expect(outcome(await verify(bytes, null))).toBe('intact');
        const v = await verify(bytes, s.checkpoint);
        expect(outcome(v)).toBe('truncated');
        expect(v.chain.intact).toBe(recs.length - k);
      }),
      params,
    );
  });

  it('a file resealed after any edit of a record is intact alone and swapped against the checkpoint', async () => {
    await fc.assert(
      fc.asyncProperty(records, fc.nat(), value, async (recs, at, replacement) => {
        const i = at % recs.length;
        const edited = recs.map((r, k) => (k === i ? { ...r, edited: replacement } : r));
        const original = seal(recs);
        const resealed = seal(edited);
        fc.pre(!resealed.bytes.equals(original.bytes));
        expect(outcome(await verify(resealed.bytes, null))).toBe('intact');
        expect(outcome(await verify(resealed.bytes, original.checkpoint))).toBe('swapped');
      }),
      params,
    );
  });
});
