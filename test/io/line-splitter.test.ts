import { describe, expect, it } from 'vitest';
import { LineSplitter, type FileFacts, type LineEvent } from '../../src/io/line-splitter.js';
import { firstInvalidByte } from '../../src/io/utf8-offset.js';

async function split(chunks: Buffer[], max = 1024): Promise<{ events: LineEvent[]; facts: FileFacts }> {
  const facts: FileFacts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
  const splitter = new LineSplitter(max, facts);
  const events: LineEvent[] = [];
  for (const chunk of chunks) events.push(...splitter.split(chunk));
  const last = splitter.end();
  if (last !== null) events.push(last);
  return { events, facts };
}

const texts = (events: LineEvent[]) => events.map((e) => (e.type === 'line' ? e.text : `!${e.code}`));

describe('splitLines', () => {
  it('gives the same lines whatever the chunk boundaries, multi-byte characters included', async () => {
    const bytes = Buffer.from('{"a":"é😀"}\r\nsecond\n\nthird');
    const whole = await split([bytes]);
    for (let size = 1; size <= bytes.length; size += 1) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const parts = await split(chunks);
      // The blank line 3 is counted, not given.
      expect(texts(parts.events)).toEqual(['{"a":"é😀"}', 'second', 'third']);
      expect(parts.events.map((e) => e.line)).toEqual([1, 2, 4]);
    }
    expect(whole.facts).toEqual({ bytes: bytes.length, lines: 4, bom: false, missingFinalNewline: true });
    expect(whole.events.map((e) => e.terminated)).toEqual([true, true, false]);
  });

  it('keeps a lone CR inside a line and strips only the CR before a newline', async () => {
    const { events } = await split([Buffer.from('a\rb\r\nc\n')]);
    expect(texts(events)).toEqual(['a\rb', 'c']);
  });

  it('strips and flags a BOM split across chunks only when it starts the file', async () => {
    const { events, facts } = await split([Buffer.from([0xef, 0xbb, 0xbf, 0x78, 0x0a])]);
    expect(texts(events)).toEqual(['x']);
    expect(facts.bom).toBe(true);
  });

  it('skips an over-long line without holding it, and resumes', async () => {
    const big = Buffer.alloc(5000, 0x61);
    const { events } = await split([big.subarray(0, 2000), big.subarray(2000), Buffer.from('\nok\n')], 100);
    expect(events).toEqual([
      { type: 'bad-line', line: 1, code: 'line-too-long', detail: 'line of 5000 bytes is longer than the limit of 100 bytes (limits.max-line-bytes)', terminated: true },
      { type: 'line', line: 2, text: 'ok', terminated: true },
    ]);
  });

  it('reports invalid UTF-8 per line, never replacing it', async () => {
    const { events } = await split([Buffer.from([0x61, 0xff, 0xfe, 0x0a, 0x62, 0x0a])]);
    expect(texts(events)).toEqual(['!invalid-utf8', 'b']);
  });

  it('a megabyte chunk is decoded in segments: every line, a bad one and one longer than a segment keep their place', async () => {
    const lines: Buffer[] = [];
    for (let i = 1; i <= 30_000; i += 1) {
      if (i === 27_000) lines.push(Buffer.from([0x7b, 0xff, 0x7d])); // invalid UTF-8, far past the first segment
      else if (i === 4000) lines.push(Buffer.from(`${'x'.repeat(100_000)}`)); // longer than a 64 KiB segment
      else lines.push(Buffer.from(`{"n":${i},"t":"line ${i} é"}`));
    }
    const bytes = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));
    expect(bytes.length).toBeGreaterThan(10 * 64 * 1024); // many segments
    const { events, facts } = await split([bytes], 200_000);
    expect(events).toHaveLength(30_000);
    events.forEach((event, i) => {
      expect(event.line).toBe(i + 1);
      if (i + 1 === 27_000) expect(event).toMatchObject({ type: 'bad-line', code: 'invalid-utf8' });
      else if (i + 1 === 4000) expect(event).toMatchObject({ type: 'line', text: 'x'.repeat(100_000) });
      else expect(event).toMatchObject({ type: 'line', text: `{"n":${i + 1},"t":"line ${i + 1} é"}` });
    });
    expect(facts).toEqual({ bytes: bytes.length, lines: 30_000, bom: false, missingFinalNewline: false });
  });

  it('an empty input has no lines and no missing newline', async () => {
    const { events, facts } = await split([]);
    expect(events).toEqual([]);
    expect(facts).toEqual({ bytes: 0, lines: 0, bom: false, missingFinalNewline: false });
  });
});

describe('LineSplitter', () => {
  it('gives the lines each chunk completes, and the unterminated last line at the end', () => {
    const facts: FileFacts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
    const splitter = new LineSplitter(1024, facts);
    expect(splitter.split(Buffer.from('a\r\nb\nc'))).toEqual([
      { type: 'line', line: 1, text: 'a', terminated: true },
      { type: 'line', line: 2, text: 'b', terminated: true },
    ]);
    expect(splitter.split(Buffer.from('d\ne'))).toEqual([{ type: 'line', line: 3, text: 'cd', terminated: true }]);
    expect(splitter.end()).toEqual({ type: 'line', line: 4, text: 'e', terminated: false });
    expect(facts).toEqual({ bytes: 9, lines: 4, bom: false, missingFinalNewline: true });
  });

  it('gives the same events and facts whatever the chunk boundaries', () => {
    const bytes = Buffer.concat([Buffer.from('\ufeff{"a":"é😀"}\r\n\r\nx\ry\n'), Buffer.from([0x61, 0xff, 0x0a]), Buffer.from(`${'z'.repeat(80)}\nlast`)]);
    const run = (size: number) => {
      const facts: FileFacts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
      const splitter = new LineSplitter(64, facts);
      const events: LineEvent[] = [];
      for (let i = 0; i < bytes.length; i += size) events.push(...splitter.split(bytes.subarray(i, i + size)));
      const last = splitter.end();
      if (last) events.push(last);
      return { events, facts };
    };
    const expected = run(bytes.length);
    expect(texts(expected.events)).toEqual(['{"a":"é😀"}', 'x\ry', '!invalid-utf8', '!line-too-long', 'last']);
    expect(expected.facts).toEqual({ bytes: bytes.length, lines: 6, bom: true, missingFinalNewline: true });
    // From 3: the BOM is looked for in the first chunk only.
    for (let size = 3; size <= bytes.length; size += 1) expect(run(size)).toEqual(expected);
  });

  // Newline bombs are counted by comparing with their blank line repeated; a record or a
  // stray byte anywhere in the stretch (first, last, past the first compare) must still be found.
  it.each([
    ['newlines', '\n'],
    ['spaces', ' \n'],
    ['CRLFs', '\r\n'],
    ['spaces, tabs and CRLF', ' \t \r\n'],
    ['a long blank line', `${' \t'.repeat(40)}\n`],
  ])('counts a stretch of repeated blank lines (%s) and finds what breaks it', (_name, blank) => {
    const repeats = Math.ceil((3 * 1024 * 1024) / blank.length);
    for (const at of [0, 1, Math.floor(repeats / 2), repeats - 1]) {
      const lines = Array.from({ length: repeats }, (_, i) => (i === at ? '{"x":1}\n' : i === at + 7 ? `${blank.slice(0, -1)}x\n` : blank));
      const { events, facts } = splitOnce(Buffer.from(lines.join('')));
      const wanted = [{ type: 'line', line: at + 1, text: '{"x":1}', terminated: true }];
      if (at + 7 < repeats) wanted.push({ type: 'line', line: at + 8, text: `${blank.slice(0, -1)}x`.replace(/\r$/, ''), terminated: true });
      expect(events).toEqual(wanted);
      expect(facts.lines).toBe(repeats);
    }
    const { events, facts } = splitOnce(Buffer.from(blank.repeat(repeats)));
    expect(events).toEqual([]);
    expect(facts.lines).toBe(repeats);
  });

  it('counts blank lines that do not repeat one pattern', () => {
    const mixed = Array.from({ length: 5000 }, (_, i) => ' \t\r'.slice(0, i % 4) + '\n').join('');
    const { events, facts } = splitOnce(Buffer.from(`${mixed}{"y":2}\n${mixed}`));
    expect(events).toEqual([{ type: 'line', line: 5001, text: '{"y":2}', terminated: true }]);
    expect(facts.lines).toBe(10001);
  });
});

function splitOnce(bytes: Buffer): { events: LineEvent[]; facts: FileFacts } {
  const facts: FileFacts = { bytes: 0, lines: 0, bom: false, missingFinalNewline: false };
  const splitter = new LineSplitter(1024 * 1024, facts);
  // In 1 MiB chunks, as files are read.
  const events: LineEvent[] = [];
  for (let i = 0; i < bytes.length; i += 1024 * 1024) events.push(...splitter.split(bytes.subarray(i, i + 1024 * 1024)));
  const last = splitter.end();
  if (last !== null) events.push(last);
  return { events, facts };
}

describe('firstInvalidByte', () => {
  it('finds overlong forms, surrogates, truncated and stray bytes', () => {
    expect(firstInvalidByte(Buffer.from('abc'))).toBe(3);
    expect(firstInvalidByte(Buffer.from([0x61, 0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidByte(Buffer.from([0xe0, 0x80, 0xaf]))).toBe(0);
    expect(firstInvalidByte(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstInvalidByte(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(firstInvalidByte(Buffer.from([0x61, 0x62, 0xe2, 0x82]))).toBe(2);
    expect(firstInvalidByte(Buffer.from([0x80]))).toBe(0);
    expect(firstInvalidByte(Buffer.from('é😀'))).toBe(6);
  });
});
