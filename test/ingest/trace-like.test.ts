import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { notTraceLike } from '../../src/ingest/trace-like.js';
import { onePixelPng } from './one-pixel-png.js';

const sample = (head: Buffer | string) => ({ file: 'x', head: Buffer.isBuffer(head) ? head : Buffer.from(head, 'utf8'), jsonLines: [], document: undefined });

describe('a file no format claims: trace-like (counted, unknown-format) or not (listed apart)', () => {
  it('binary files are named by their first bytes', () => {
    expect(notTraceLike(sample(onePixelPng()))).toBe('a PNG image');
    expect(notTraceLike(sample(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])))).toBe('a JPEG image');
    expect(notTraceLike(sample('GIF89a\u0001\u0000'))).toBe('a GIF image');
    expect(notTraceLike(sample('%PDF-1.7\n%\u00e2\u00e3'))).toBe('a PDF document');
    expect(notTraceLike(sample(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])))).toBe('binary data');
    expect(notTraceLike(sample(Buffer.from([0x61, 0xc3, 0x28, 0x62])))).toBe('binary data');
    // A gzip stream the sample could not inflate is bytes, not a trace.
    expect(notTraceLike(sample(gzipSync('{}').subarray(0, 6)))).toBe('binary data');
  });

  it('prose, HTML and CSV are text that is not JSON or YAML', () => {
    expect(notTraceLike(sample('# Traces\n\nThis folder holds the traces our CI writes.\n'))).toBe('text that is not JSON or YAML');
    expect(notTraceLike(sample('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe('text that is not JSON or YAML');
    expect(notTraceLike(sample('id,name\n1,a\n'))).toBe('text that is not JSON or YAML');
  });

  it('JSON, JSON lines, YAML (after comments and ---), a zip archive and an empty file may be traces: counted', () => {
    for (const text of ['{"a": 1}', '  [1, 2]', '{"a":1}\n{"b":2}\n', '{ not json', 'interactions:\n- request: {}\n', '# recorded\n---\nversion: 2\ninteractions: []\n', '"version": 1\n', '']) {
      expect(notTraceLike(sample(text)), JSON.stringify(text)).toBeNull();
    }
    expect(notTraceLike(sample(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0])))).toBeNull();
    // A README whose first prose line reads as a YAML key is counted (unknown-format): when unsure, count.
    expect(notTraceLike(sample('# Traces\n\nNote: written by CI\n'))).toBeNull();
  });

  it('a multi-byte character cut at the end of the 4 KiB look is not binary', () => {
    const text = `${'#'.repeat(4095)}é and more`;
    expect(notTraceLike(sample(text))).toBe('text that is not JSON or YAML');
  });
});
