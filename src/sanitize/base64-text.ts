/**
 * Whether a base64 run can decode to text, told without building the bytes or the
 * string: most runs in a trace are ids, hashes and paths (`0199a1c2-0000-…`, a sha256
 * in hex), which decode to noise. The run's bytes are decoded into a scratch buffer and
 * read as UTF-8 the way the WHATWG decoder (and `Buffer#toString`) reads them: each
 * valid sequence is one character, each maximal invalid subpart one U+FFFD.
 */

const VALUE = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => (VALUE[c.charCodeAt(0)] = i));
VALUE['-'.charCodeAt(0)] = 62;
VALUE['_'.charCodeAt(0)] = 63;

let scratch = new Uint8Array(1024);

/** The bytes of `body` (base64 characters of both alphabets, no padding) in `scratch`; their count. */
function decodeInto(body: string): number {
  const n = body.length;
  if (scratch.length < n) scratch = new Uint8Array(n);
  let out = 0;
  let bits = 0;
  let held = 0;
  for (let i = 0; i < n; i += 1) {
    bits = (bits << 6) | VALUE[body.charCodeAt(i)]!;
    held += 6;
    if (held >= 8) {
      held -= 8;
      scratch[out] = (bits >> held) & 0xff;
      out += 1;
    }
  }
  return out;
}

/** Bounds of the second byte after each lead byte (WHATWG UTF-8 decoder); the others are 0x80-0xBF. */
function secondLow(lead: number): number {
  return lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
}
function secondHigh(lead: number): number {
  return lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
}
function trailing(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 1;
  if (lead >= 0xe0 && lead <= 0xef) return 2;
  return lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
}

/** Printable as `decodeText` counts it: text characters, tab and line breaks, not C1 controls or U+FFFD. */
function printable(c: number): boolean {
  return (c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0xa0 && c !== 0xfffd);
}

/**
 * The share of printable characters in the UTF-8 reading of the first `length` bytes
 * of `scratch`, as `[printable, total]`.
 */
function countCharacters(length: number): [number, number] {
  let good = 0;
  let total = 0;
  let i = 0;
  while (i < length) {
    const lead = scratch[i]!;
    total += 1;
    if (lead < 0x80) {
      if (printable(lead)) good += 1;
      i += 1;
      continue;
    }
    const more = trailing(lead);
    let code = more === 1 ? lead & 0x1f : more === 2 ? lead & 0x0f : lead & 0x07;
    let j = i + 1;
    for (let k = 0; k < more && j < length; k += 1, j += 1) {
      const b = scratch[j]!;
      if (k === 0 ? b < secondLow(lead) || b > secondHigh(lead) : b < 0x80 || b > 0xbf) break;
      code = (code << 6) | (b & 0x3f);
    }
    // A whole sequence is one character; a lead byte alone or a cut sequence is one U+FFFD.
    if (more > 0 && j - i === more + 1 && printable(code)) good += 1;
    i = more === 0 ? i + 1 : j;
  }
  return [good, total];
}

/** False when the UTF-8 reading of base64 `body` is less than `share` printable (no string is made). */
export function mayDecodeToText(body: string, share: number): boolean {
  const [good, total] = countCharacters(decodeInto(body));
  return total > 0 && good / total >= share;
}
