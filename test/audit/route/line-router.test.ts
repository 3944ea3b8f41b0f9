import { describe, expect, it } from 'vitest';
import { LineRouter, type LineBatch } from '../../../src/audit/route/line-router.js';
import { ownerOf, RouteKey } from '../../../src/audit/route/route-key.js';
import { lineEvents } from '../../../src/audit/route/routed-input.js';

const THREADS = 3;

/** Runs one after another (long stretches for one thread), interleaved stretches, and lines the byte search must leave to a parse. */
function log(): string {
  let text = '';
  for (let i = 0; i < 4000; i += 1) {
    const run = i < 2000 ? `seq-${Math.floor(i / 300)}` : `mix-${i % 5}`;
    if (i % 997 === 3) text += '\n  \n';
    if (i === 1500) text += '{"kind":"llm","args":{"run_id":"nested"},"run_id":"seq-5"}\n';
    if (i === 1600) text += '{"kind":"llm"}\n{"kind":"llm","note":"no key on this line or the next"}\n';
    if (i === 2500) text += '{"run_id":"mix-\\u0031","kind":"llm"}\r\n{"run_id" : "mix-2" , "kind":"llm"}\n';
    text += `{"ts":${i},"run_id":"${run}","kind":"tool_call","call_id":"c${i}","tool":"grep","args":{"q":"${'x'.repeat(i % 40)}"}}\n`;
  }
  return `${text}{"run_id":"last","kind":"llm"}`;
}

/** What each thread should get, by an independent reader: each non-blank line's run id by JSON.parse. */
function expected(text: string): Array<Array<[number, string]>> {
  const out: Array<Array<[number, string]>> = Array.from({ length: THREADS }, () => []);
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const value = JSON.parse(line) as { run_id?: unknown };
    const id = typeof value.run_id === 'string' ? value.run_id : null;
    out[ownerOf(id, THREADS)]!.push([i + 1, line]);
  });
  return out;
}

/** Feeds `text` in chunks of `size` bytes through one reused buffer, as the byte source does with `reuse: true`. */
async function route(text: string, size: number): Promise<{ got: Array<Array<[number, string]>>; fallbacks: number }> {
  const key = new RouteKey('run_id', THREADS);
  const batches: Array<Array<LineBatch>> = Array.from({ length: THREADS }, () => []);
  const router = new LineRouter(key, 1 << 20, (thread, batch) => {
    // The batch's bytes are its own: copied now, they must still read the same after the chunk is reused.
    batches[thread]!.push(batch);
    return undefined;
  });
  const bytes = Buffer.from(text);
  const chunk = Buffer.alloc(size);
  for (let at = 0; at < bytes.length; at += size) {
    const n = bytes.copy(chunk, 0, at, Math.min(bytes.length, at + size));
    await router.feed(n === size ? chunk : chunk.subarray(0, n));
    chunk.fill(0x21);
  }
  await router.end();
  const got = batches.map((list) => list.flatMap((batch) => lineEvents(batch, 1 << 20).map((event): [number, string] => [event.line, event.type === 'line' ? event.text : `bad:${event.type}`])));
  return { got, fallbacks: key.fallbacks };
}

describe('the line router', () => {
  it('sends every line to the thread of its run id, whatever the chunk size, with long same-thread stretches copied in one piece', async () => {
    const text = log();
    const want = expected(text);
    for (const size of [7, 64, 1000, 65536, 1 << 20]) {
      const { got, fallbacks } = await route(text, size);
      expect(got).toEqual(want);
      // The nested key, the two lines without a key and the escaped value are placed by a parse; the spaced key is not.
      expect(fallbacks).toBe(4);
    }
  });
});
