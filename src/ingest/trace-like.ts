import type { DetectSample } from './types.js';

/** How much of the head the judgment looks at. */
const LOOK_BYTES = 4096;

/** Binary files named by their first bytes (magic numbers). */
const MAGIC: ReadonlyArray<readonly [string, (head: Buffer) => boolean]> = [
  ['a PNG image', (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['a JPEG image', (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff],
  ['a GIF image', (h) => h.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['a WebP image', (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['a PDF document', (h) => h.subarray(0, 5).toString('latin1') === '%PDF-'],
];

/** A YAML document's first line that is not a comment, a blank or `---`: a top-level key (`interactions:`, `"version": 2`). */
const YAML_KEY = /^(?:[A-Za-z_][\w.-]*|"[^"\n]*"|'[^'\n]*')[ \t]*:(?:\s|$)/;

/**
 * Why a file no format claimed is not trace-like at all, or null when it could be a
 * trace (then it counts, and is `unknown-format`). Every trace format read is JSON,
 * JSON lines or YAML, or a zip archive (`.eval`), plain or gzip. Judged from the
 * detection sample's first 4 KiB (gzip inflated, BOM removed):
 *
 * - a zip archive, or an empty file, may be a trace: null;
 * - bytes that are not text (a NUL byte, or not UTF-8): not a
 *   trace, named by its first bytes (`a PNG image`, `a JPEG image`, `a GIF image`,
 *   `a WebP image`, `a PDF document`) or `binary data`;
 * - text whose first character (blanks left out) opens JSON (`{`, `[`): may be a trace;
 * - text whose first line, after comment lines (`#`), blanks and a `---`, is a YAML
 *   key (`word:` followed by a blank or the line end): may be a trace;
 * - any other text (a README's prose and headings, HTML, CSV, a plain log): `text that
 *   is not JSON or YAML`.
 *
 * A file one format claims is never judged here: a claimed file always counts.
 */
export function notTraceLike(sample: DetectSample): string | null {
  const head = sample.head.subarray(0, LOOK_BYTES);
  if (head.length === 0) return null;
  if (head[0] === 0x50 && head[1] === 0x4b) return null;
  for (const [name, matches] of MAGIC) if (matches(head)) return name;
  if (!isText(head, sample.head.length > LOOK_BYTES)) return 'binary data';
  const text = head.toString('utf8').replace(/\r\n?/g, '\n');
  const first = /[^\s]/.exec(text)?.[0];
  if (first === '{' || first === '[') return null;
  const body = text.replace(/^(?:[ \t]*#[^\n]*\n|[ \t]*\n)*(?:---[ \t]*\n)?(?:[ \t]*#[^\n]*\n|[ \t]*\n)*/, '');
  if (YAML_KEY.test(body)) return null;
  return 'text that is not JSON or YAML';
}

/** No NUL byte, and valid UTF-8 (a character cut at the end of a longer file is forgiven). */
function isText(head: Buffer, cut: boolean): boolean {
  if (head.includes(0)) return false;
  try {
    // stream: a character cut at the end of the look is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: cut });
    return true;
  } catch {
    return false;
  }
}
