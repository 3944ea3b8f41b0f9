import { describe, expect, it } from 'vitest';
import { blankRun } from '../../src/io/blank-lines.js';

/** The run as a reader of lines counts it: whole lines equal to the first, from `start`. */
function byLines(chunk: Buffer, start: number): { lines: number; end: number } {
  const first = chunk.indexOf(0x0a, start);
  if (first === -1) return { lines: 0, end: start };
  const line = chunk.subarray(start, first + 1);
  if (!/^[ \t\r]*\n$/.test(line.toString('latin1'))) return { lines: 0, end: start };
  let at = start;
  while (at + line.length <= chunk.length && chunk.subarray(at, at + line.length).equals(line)) at += line.length;
  return { lines: (at - start) / line.length, end: at };
}

describe('blankRun: a stretch of one blank line repeated', () => {
  const cases: Array<[string, Buffer, number]> = [
    ['newlines, then a record', Buffer.concat([Buffer.alloc(3_000_001, '\n'), Buffer.from('{"a":1}\n')]), 0],
    ['space-newline past one window, ending mid-window', Buffer.concat([Buffer.from(' \n'.repeat(700_001)), Buffer.from('\n{"a":1}\n')]), 0],
    ['CRLF from an offset, cut at the chunk end in the middle of a line', Buffer.from(`x\n${'\r\n'.repeat(12_345)}\r`), 2],
    ['a different blank line after the run', Buffer.from(`${' \t\n'.repeat(5)}\n\n`), 0],
    ['a record first', Buffer.from('{"a":1}\n\n\n'), 0],
    ['a blank line with no newline in the chunk', Buffer.from('   '), 0],
    ['a single newline', Buffer.from('\n'), 0],
  ];
  for (const [name, chunk, start] of cases) {
    it(name, () => {
      expect(blankRun(chunk, start)).toEqual(byLines(chunk, start));
    });
  }

  it('counts 64 MiB of " \\n" in well under a second', () => {
    const chunk = Buffer.from(' \n'.repeat(32 * 1024 * 1024));
    const started = performance.now();
    expect(blankRun(chunk, 0)).toEqual({ lines: 32 * 1024 * 1024, end: chunk.length });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
