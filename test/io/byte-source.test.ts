import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openByteSource } from '../../src/io/byte-source.js';
import { LineSplitter } from '../../src/io/line-splitter.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { tempTree } from '../helpers.js';

async function readAll(path: string, maxInflatedBytes = DEFAULT_LIMITS.maxInflatedBytes) {
  const source = await openByteSource(path, { ...DEFAULT_LIMITS, maxInflatedBytes });
  const parts: Buffer[] = [];
  for await (const chunk of source.chunks()) parts.push(chunk);
  return { bytes: Buffer.concat(parts), problem: source.problem, gzip: source.gzip };
}

describe('openByteSource', () => {
  const a = Buffer.from('{"kind":"llm"}\n');
  const b = Buffer.from('{"kind":"llm","n":2}\n');
  const root = tempTree({
    'plain.jsonl': a,
    'one.jsonl.gz': gzipSync(a),
    'multi.jsonl.gz': Buffer.concat([gzipSync(a), gzipSync(b)]),
    'cut.jsonl.gz': gzipSync(Buffer.concat([a, b])).subarray(0, 20),
    'bomb.jsonl.gz': gzipSync(Buffer.alloc(1_000_000, 0x20)),
    'named-gz-but-plain.gz': a,
  });

  it('reads plain files and detects gzip by its magic bytes, not the name', async () => {
    expect(await readAll(join(root, 'plain.jsonl'))).toEqual({ bytes: a, problem: null, gzip: false });
    expect(await readAll(join(root, 'named-gz-but-plain.gz'))).toEqual({ bytes: a, problem: null, gzip: false });
    expect(await readAll(join(root, 'one.jsonl.gz'))).toEqual({ bytes: a, problem: null, gzip: true });
  });

  it('reads every member of a multi-member gzip', async () => {
    expect((await readAll(join(root, 'multi.jsonl.gz'))).bytes.toString()).toBe(`${a}${b}`);
  });

  it('reports a truncated gzip stream', async () => {
    const { problem } = await readAll(join(root, 'cut.jsonl.gz'));
    expect(problem?.code).toBe('gzip-truncated');
  });

  it('stops a 1000:1 bomb at the inflate cap', async () => {
    const { bytes, problem } = await readAll(join(root, 'bomb.jsonl.gz'), 100_000);
    expect(bytes.length).toBe(100_000);
    expect(problem).toEqual({ code: 'inflate-cap', message: 'inflated size passed the limit of 100000 bytes (limits.max-inflated-bytes); reading stopped there' });
  });

  it('reads no byte of a plain file past limits.max-file-bytes, names a document cap when given one, and reads the head uncapped', async () => {
    const path = join(root, 'plain.jsonl');
    const over = await openByteSource(path, { ...DEFAULT_LIMITS, maxFileBytes: a.length - 1 });
    const chunks: Buffer[] = [];
    for await (const chunk of over.chunks()) chunks.push(chunk);
    expect([chunks.length, over.problem]).toEqual([0, { code: 'file-cap', message: `file of ${a.length} bytes is larger than the limit of ${a.length - 1} bytes (limits.max-file-bytes); it was not read` }]);
    const doc = await openByteSource(path, DEFAULT_LIMITS, { plain: { bytes: 4, setting: 'maxDocumentBytes' } });
    for await (const chunk of doc.chunks()) chunks.push(chunk);
    expect([chunks.length, doc.problem?.message]).toEqual([0, `file of ${a.length} bytes is larger than the limit of 4 bytes (limits.max-document-bytes); it was not read as one JSON document`]);
    const atLimit = await openByteSource(path, { ...DEFAULT_LIMITS, maxFileBytes: a.length });
    for await (const chunk of atLimit.chunks()) chunks.push(chunk);
    const head = await openByteSource(path, { ...DEFAULT_LIMITS, maxFileBytes: 1 }, { plain: null });
    for await (const chunk of head.chunks()) chunks.push(chunk);
    expect([Buffer.concat(chunks).toString(), atLimit.problem, head.problem]).toEqual([`${a}${a}`, null, null]);
  });

  it('reuses one read buffer when asked: each chunk is good until the next, and the line splitter keeps what it needs', async () => {
    // Lines of varied length cross the 1 MiB chunk boundaries of a 3 MiB file.
    const lines = Array.from({ length: 40_000 }, (_, i) => `{"i":${i},"pad":"${'p'.repeat(i % 150)}"}`);
    const dir = tempTree({ 'big.jsonl': Buffer.from(`${lines.join('\n')}\n`) });
    const source = await openByteSource(join(dir, 'big.jsonl'), DEFAULT_LIMITS);
    const seen = new Set<ArrayBufferLike>();
    async function* watched() {
      for await (const chunk of source.chunks({ reuse: true })) {
        seen.add(chunk.buffer);
        yield chunk;
      }
    }
    const facts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
    const got: string[] = [];
    const splitter = new LineSplitter(DEFAULT_LIMITS.maxLineBytes, facts);
    for await (const chunk of watched()) for (const e of splitter.split(chunk)) got.push(e.type === 'line' ? e.text : '!');
    expect(splitter.end()).toBeNull();
    expect(seen.size).toBe(1);
    expect(got).toEqual(lines);
    expect(facts.lines).toBe(40_000);
  });
});
