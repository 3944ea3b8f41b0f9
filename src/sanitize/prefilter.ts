/**
 * The secret scan's prefilter: a cheap test that is true for every text in which a
 * secret pattern (or a base64 secret) can match. Most strings of a trace (paths, ids,
 * prose) are settled by it, so it runs on every string and must cost little more than
 * reading the text once.
 *
 * It is a superset, not a copy, of the patterns (test/sanitize/prefilter.test.ts
 * checks it against the unfiltered scan):
 * - a run of 24 base64 characters, which the base64 pass needs and which every token
 *   whose match is 24 or more such characters in a row holds (github, openai,
 *   anthropic, google, stripe, aws-secret-key and every prefixed format of
 *   token-formats.ts: their literal prefixes are not looked for);
 * - the literal part of each case-sensitive pattern whose match can be shorter or broken
 *   by other characters (PEM header, AWS key id, Slack token, JWT, `://` of URLs);
 * - the words of the case-insensitive header and query patterns, looked for only when
 *   the text holds the `:` or `=` each of them needs.
 * A new pattern must be covered by one of the three.
 */
import { mayHideEncoded } from './decoded-view.js';

// `eyJ` (a JWT) is looked for apart: as a branch it was tried at every `e` of the text.
const CASED_LITERAL = /-----BEGIN|A[KS]IA|ABIA|ACCA|xox[abposre]-|xapp-|:\/\//;
/** `CASED_LITERAL`, a percent or JSON escape, or a character NFKC may change (what `mayHideEncoded` looks for). */
const LITERAL_OR_ENCODED = /-----BEGIN|A[KS]IA|ABIA|ACCA|xox[abposre]-|xapp-|:\/\/|%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\\/|[\u00a0-\uffff]/;
const HEADER_OR_QUERY = /cookie|authorization|api-key|x-auth-token|private-token|[?&][a-z_-]+=/i;

/** Characters of a base64 run (standard and URL-safe alphabets), by char code. */
const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') BASE64_CHAR[c.charCodeAt(0)] = 1;
/** The shortest run of base64 characters the prefilter looks for (every token format's match holds one). */
export const BASE64_RUN = 24;

function isBase64Char(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 && BASE64_CHAR[c] === 1;
}

/**
 * Where the first run of 24 base64 characters starting at or after `from` starts, or -1.
 * No run starts before `start`: the character at `start + 23` is read first (a run starting
 * at or after `start` that holds none of the characters read must start after it), then
 * back towards `start`. A character is read at most twice, and prose is mostly skipped 24
 * characters at a time.
 */
export function base64RunFrom(text: string, from: number): number {
  let start = from;
  while (start + BASE64_RUN <= text.length) {
    const end = start + BASE64_RUN - 1;
    if (!isBase64Char(text, end)) {
      start = end + 1;
      continue;
    }
    let at = end - 1;
    while (at >= start && isBase64Char(text, at)) at -= 1;
    if (at < start) return start;
    start = at + 1;
  }
  return -1;
}

/** True when `text` has 24 base64 characters in a row. */
function hasBase64Run(text: string): boolean {
  return base64RunFrom(text, 0) !== -1;
}

/** True when `text` holds `eyJ` (found by its rarer `yJ`). */
function hasJwtStart(text: string): boolean {
  for (let at = text.indexOf('yJ', 1); at !== -1; at = text.indexOf('yJ', at + 2)) if (text.charCodeAt(at - 1) === 0x65) return true;
  return false;
}

function hasHeaderOrQuery(text: string): boolean {
  return (text.includes(':') || text.includes('=')) && HEADER_OR_QUERY.test(text);
}

/** False means no pattern (and no base64 secret) can match `text` itself (its decoded view aside). */
export function maybeSecret(text: string): boolean {
  return hasBase64Run(text) || CASED_LITERAL.test(text) || hasJwtStart(text) || hasHeaderOrQuery(text);
}

/** No pattern can match in fewer characters (`a://b:c@`, credentials in a URL). */
export const SHORTEST_SECRET = 8;

/**
 * False means no pattern can match `text` or its decoded view: nothing the patterns
 * need, and no encoding (percent escapes, characters NFKC changes) that could hide it.
 */
export function mayHoldSecret(text: string): boolean {
  if (hasBase64Run(text) || hasJwtStart(text)) return true;
  // One pass looks for a literal, an escape or a character past U+009F (the one match of length 1).
  const first = LITERAL_OR_ENCODED.exec(text);
  if (first === null) return hasHeaderOrQuery(text);
  return first[0].length > 1 || CASED_LITERAL.test(text) || hasHeaderOrQuery(text) || mayHideEncoded(text);
}
