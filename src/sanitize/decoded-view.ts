/**
 * The text a secret can hide behind an encoding, as a reader would see it:
 * `%XX` escapes decoded (`gh%70_…`, `Authorization%3A%20Bearer%20…`), JSON string
 * escapes decoded (`\u0041KIA…`, `\/`, `\"`, `\n`: a raw JSON line, or a string that
 * holds JSON text) and every character NFKC-normalized (fullwidth `ｇｈｐ＿…`,
 * mathematical letters). Each
 * character of the view remembers where it came from in the original text, so a
 * secret found in the view is redacted in the original.
 */

export interface DecodedView {
  readonly text: string;
  /** `from[i]`: index in the original of the character that gave view character i; `from[text.length]` is the original's length. */
  readonly from: Int32Array;
}

/** Rounds of decoding (`%2570` is `%70` is `p`): each round is linear in the text. */
const MAX_ROUNDS = 3;

// A JSON escape that can hide a token's characters: `\uXXXX` or `\/` (a view, once built, decodes
// `\"`, `\n` and the others too; they alone do not build one: raw JSON lines are full of them).
const ESCAPE = /%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\\//;
// Characters below U+00A0 are their own NFKC form. One pass looks for an escape or such a character.
const ESCAPE_OR_WIDE = /%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\\/|[\u00a0-\uffff]/;

/** True when the view of `text` could differ from it (cheap: no view is built). */
export function mayHideEncoded(text: string): boolean {
  const first = ESCAPE_OR_WIDE.exec(text);
  if (first === null) return false;
  // A character past U+009F came first: an escape may still follow, or NFKC may change the text.
  return first[0].length > 1 || ESCAPE.test(text) || text.normalize('NFKC') !== text;
}

/** The decoded view of `text`, or null when decoding changes nothing. */
export function decodedView(text: string): DecodedView | null {
  if (!mayHideEncoded(text)) return null;
  let view = decodeOnce(text);
  for (let round = 1; round < MAX_ROUNDS && mayHideEncoded(view.text); round += 1) {
    const next = decodeOnce(view.text);
    const from = new Int32Array(next.text.length + 1);
    for (let i = 0; i < from.length; i += 1) from[i] = view.from[next.from[i]!]!;
    view = { text: next.text, from };
  }
  return view.text === text ? null : view;
}

/** The byte of a `%XX` escape at `i`, or -1. */
function hexAt(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x25 || i + 2 >= text.length) return -1;
  const hi = hexDigit(text.charCodeAt(i + 1));
  const lo = hexDigit(text.charCodeAt(i + 2));
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Length of the UTF-8 sequence a lead byte starts (1 for ASCII or a stray byte). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  return lead >= 0xc0 ? 2 : 1;
}

/** What a JSON escape's letter stands for (`\uXXXX` aside). */
const JSON_ESCAPES: ReadonlyMap<string, string> = new Map([['"', '"'], ['\\', '\\'], ['/', '/'], ['b', '\b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t']]);

/** The JSON escape at `i` (`\uXXXX`, `\n`, `\/`, …): what it stands for and its length, or null. */
function jsonEscapeAt(text: string, i: number): { decoded: string; length: number } | null {
  const letter = text[i + 1];
  if (letter === undefined) return null;
  if (letter !== 'u') {
    const decoded = JSON_ESCAPES.get(letter);
    return decoded === undefined ? null : { decoded, length: 2 };
  }
  const hex = text.slice(i + 2, i + 6);
  return /^[0-9A-Fa-f]{4}$/.test(hex) ? { decoded: String.fromCharCode(parseInt(hex, 16)).normalize('NFKC'), length: 6 } : null;
}

/**
 * One round: percent escapes decoded (a UTF-8 sequence of escapes as one character),
 * JSON escapes decoded, then NFKC per code point. Unchanged stretches are copied as slices.
 */
function decodeOnce(text: string): DecodedView {
  const parts: string[] = [];
  const from = new OriginIndex(text.length + 1);
  let plainFrom = 0;
  const flush = (to: number) => {
    if (to <= plainFrom) return;
    parts.push(text.slice(plainFrom, to));
    from.range(plainFrom, to);
  };
  const piece = (decoded: string, start: number) => {
    parts.push(decoded);
    from.repeat(start, decoded.length);
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x5c) {
      const escape = jsonEscapeAt(text, i);
      if (escape !== null) {
        flush(i);
        piece(escape.decoded, i);
        i += escape.length;
        plainFrom = i;
        continue;
      }
    } else if (code === 0x25) {
      const end = escapedSequenceEnd(text, i);
      if (end !== -1) {
        flush(i);
        const lead = hexAt(text, i);
        piece(lead < 0x80 ? String.fromCharCode(lead) : Buffer.from(bytesOf(text, i, end)).toString('utf8').normalize('NFKC'), i);
        i = end;
        plainFrom = i;
        continue;
      }
    } else if (code >= 0xa0) {
      const width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
      const ch = text.slice(i, i + width);
      const normal = ch.normalize('NFKC');
      if (normal !== ch) {
        flush(i);
        piece(normal, i);
        plainFrom = i + width;
      }
      i += width;
      continue;
    }
    i += 1;
  }
  flush(text.length);
  from.repeat(text.length, 1);
  return { text: parts.join(''), from: from.done() };
}

/** A view's `from`, written in place (a typed array grown by doubling): a push per character was most of a seal's redaction time. */
class OriginIndex {
  private index: Int32Array;
  private size = 0;

  constructor(capacity: number) {
    this.index = new Int32Array(capacity);
  }

  /** Each original index from `start` to `end` (a stretch copied as it was). */
  range(start: number, end: number): void {
    this.room(end - start);
    for (let c = start; c < end; c += 1) this.index[this.size++] = c;
  }

  /** `count` view characters that came from the original index `origin` (a decoded escape). */
  repeat(origin: number, count: number): void {
    this.room(count);
    this.index.fill(origin, this.size, this.size + count);
    this.size += count;
  }

  done(): Int32Array {
    return this.index.subarray(0, this.size);
  }

  private room(n: number): void {
    if (this.size + n <= this.index.length) return;
    const bigger = new Int32Array(Math.max(this.index.length * 2, this.size + n));
    bigger.set(this.index.subarray(0, this.size));
    this.index = bigger;
  }
}

/** Where the `%XX` escapes of one character (ASCII, or a whole UTF-8 sequence) that start at `i` end, or -1. */
function escapedSequenceEnd(text: string, i: number): number {
  const lead = hexAt(text, i);
  if (lead === -1) return -1;
  const length = sequenceLength(lead);
  let j = i + 3;
  for (let k = 1; k < length; k += 1, j += 3) {
    const next = hexAt(text, j);
    if (next < 0x80 || next > 0xbf) return -1;
  }
  return j;
}

function bytesOf(text: string, start: number, end: number): number[] {
  const out: number[] = [];
  for (let j = start; j < end; j += 3) out.push(hexAt(text, j));
  return out;
}
