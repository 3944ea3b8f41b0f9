// The writer every per-format generator shares: sessions written one after another,
// buffered, until the file reaches the size asked for. Deterministic: same seed and
// size, same bytes. A generator is `session(rand, index, counts)` returning the text of
// one session (whole lines) and adding what it wrote to `counts`.
import { createWriteStream } from 'node:fs';
import { mulberry32 } from '../gen-span-log.mjs';

/** Writes sessions of `generator` to `path` until it holds at least `bytes` bytes; returns the counts. */
export async function writeSessions(path, generator, bytes, seed = 42) {
  const rand = mulberry32(seed);
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  const counts = { bytes: 0, lines: 0, sessions: 0, records: 0, calls: 0, results: 0, errors: 0 };
  let buffer = '';
  for (let index = 0; counts.bytes < bytes; index += 1) {
    const text = generator.session(rand, index, counts);
    counts.sessions += 1;
    counts.bytes += Buffer.byteLength(text);
    buffer += text;
    if (buffer.length >= 1 << 20) {
      if (!out.write(buffer)) await new Promise((resolve) => out.once('drain', resolve));
      buffer = '';
    }
  }
  out.end(buffer);
  await new Promise((resolve, reject) => out.on('finish', resolve).on('error', reject));
  return counts;
}

/** Filler text of about `n` characters (words from a fixed list, so JSON stays plain). */
const WORDS = ['the', 'module', 'returns', 'value', 'for', 'test', 'config', 'file', 'error', 'path', 'function', 'line', 'import', 'build', 'output', 'check'];
export function prose(rand, n) {
  let text = '';
  while (text.length < n) text += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
  return text.trimEnd();
}

export const TOOLS = ['Read', 'Bash', 'Edit', 'Grep', 'Glob', 'Write'];
export const pick = (rand, list) => list[Math.floor(rand() * list.length)];
export const iso = (ms) => new Date(ms).toISOString();
