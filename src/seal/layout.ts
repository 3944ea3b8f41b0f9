import { createHash } from 'node:crypto';
import { sha256Hex } from '../canonical/index.js';

/**
 * The byte layout of a sealed file (docs/sealing.md is the specification).
 *
 * Link n (0-based) is one line, terminated by "\n":
 *   {"prev":"<P>","digest":"<D>"}                       when the record is {}
 *   {"prev":"<P>","digest":"<D>",<members of the body>}  otherwise
 * where body is the canonical JSON of the original record (which starts with
 * "{" and ends with "}"), P is the digest of link n-1 (64 zeros for link 0),
 * and D = hex(SHA-256(P "\n" n "\n" body)) with n in decimal ASCII.
 * Every byte of a line is thus covered: P and D by the chain, the rest by D.
 */
export const ZERO_DIGEST = '0'.repeat(64);

/** Longest sealed line accepted (canonical forms can be longer than the source line). */
export const MAX_LINK_BYTES = 64 * 1024 * 1024;

const HEAD = '{"prev":"';
const MIDDLE = '","digest":"';
const HEX64 = /^[0-9a-f]{64}$/;
const HEAD_BYTES = Buffer.from(HEAD, 'latin1');
const MIDDLE_BYTES = Buffer.from(MIDDLE, 'latin1');
const PREV_AT = HEAD.length; // 9
const MIDDLE_AT = PREV_AT + 64; // 73
const DIGEST_AT = MIDDLE_AT + MIDDLE.length; // 85
const TAIL_AT = DIGEST_AT + 64; // 149: the closing quote of the digest

/** D for link `index` whose predecessor's digest is `prev` and whose canonical record is `body`. */
export function linkDigest(prev: string, index: number, body: Uint8Array | string): string {
  return createHash('sha256').update(`${prev}\n${index}\n`, 'latin1').update(body).digest('hex');
}


const NEWLINE = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;
const CLOSE = 0x7d;
/** Bytes of a link before its members: `{"prev":"P","digest":"D"` (150, more than the 82 of `P \n n \n` for n below 2^53). */
const LINK_HEAD_BYTES = TAIL_AT + 1;

/** Bytes of the sealed line, newline included, for a body of `bodyBytes` UTF-8 bytes. */
export function linkBytes(bodyBytes: number): number {
  return bodyBytes === 2 ? LINK_HEAD_BYTES + 2 : LINK_HEAD_BYTES + bodyBytes + 1;
}

/**
 * Sealed lines written straight into one reusable byte buffer, the same bytes as
 * `${formatLink(prev, linkDigest(prev, n, body), body)}\n`, with the body encoded
 * to UTF-8 once and no string, Hash object or copy per link: the body is written
 * where the link's members go, `P \n n \n` just before it (over the place of
 * the head, written once the digest is known), hashed in place, and its `{`
 * turned into the `,` after the digest (or, for `{}`, the `}` that ends the line).
 */
export class LinkWriter {
  private buffer: Buffer;
  private used = 0;

  constructor(private readonly capacity = 1024 * 1024) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  /** Bytes written since the last take(). */
  get length(): number {
    return this.used;
  }

  /** Writes the link for `body` (a canonical JSON object) at index `index` after `prev`; returns its digest. */
  append(prev: string, index: number, body: string): string {
    // A UTF-16 code unit is at most 3 UTF-8 bytes; count exactly only when that bound does not fit.
    let room = LINK_HEAD_BYTES + body.length * 3 + 1;
    if (this.used + room > this.buffer.length) room = LINK_HEAD_BYTES + Buffer.byteLength(body, 'utf8') + 1;
    this.reserve(room);
    const buf = this.buffer;
    const at = this.used;
    const bodyAt = at + LINK_HEAD_BYTES;
    const bodyBytes = buf.write(body, bodyAt, 'utf8');
    // `P \n n \n`, written backwards from the body: n's digits from the last.
    let p = bodyAt - 1;
    buf[p] = NEWLINE;
    let n = index;
    do {
      const digit = n % 10;
      buf[--p] = 0x30 + digit;
      n = (n - digit) / 10;
    } while (n > 0);
    buf[--p] = NEWLINE;
    p -= 64;
    buf.write(prev, p, 'latin1');
    const digest = sha256Hex(buf.subarray(p, bodyAt + bodyBytes));
    // P moves into the head before the head's other bytes overwrite where it was.
    buf.copyWithin(at + PREV_AT, p, p + 64);
    buf.set(HEAD_BYTES, at);
    buf.set(MIDDLE_BYTES, at + MIDDLE_AT);
    buf.write(digest, at + DIGEST_AT, 'latin1');
    buf[at + TAIL_AT] = QUOTE;
    if (bodyBytes === 2) {
      buf[bodyAt] = CLOSE;
      buf[bodyAt + 1] = NEWLINE;
    } else {
      buf[bodyAt] = COMMA;
      buf[bodyAt + bodyBytes] = NEWLINE;
    }
    this.used = at + linkBytes(bodyBytes);
    return digest;
  }

  /**
   * The bytes written so far, and an empty writer. The bytes are a view of the
   * writer's buffer: use them up (write them out) before the next append.
   */
  take(): Buffer {
    const out = this.buffer.subarray(0, this.used);
    this.used = 0;
    // A buffer grown for one long link is let go rather than kept for the rest of the file.
    if (this.buffer.length > this.capacity) this.buffer = Buffer.allocUnsafe(this.capacity);
    return out;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.used + bytes));
    this.buffer.copy(grown, 0, 0, this.used);
    this.buffer = grown;
  }
}

/** The sealed line (without its newline) for a canonical record body. */
export function formatLink(prev: string, digest: string, body: string): string {
  const members = body.slice(1, -1);
  return `${HEAD}${prev}${MIDDLE}${digest}"${members === '' ? '' : `,${members}`}}`;
}

/** A line split into its chain fields and the record body it seals. */
export interface ParsedLink {
  readonly prev: string;
  readonly digest: string;
  readonly body: Buffer;
}

/** Splits one sealed line (bytes, no newline); a string says why it is not a link. */
export function parseLink(line: Buffer): ParsedLink | string {
  if (line.length < TAIL_AT + 2 || !line.subarray(0, PREV_AT).equals(HEAD_BYTES)) return 'it does not start with {"prev":"';
  const prev = line.toString('latin1', PREV_AT, MIDDLE_AT);
  if (!HEX64.test(prev)) return 'its "prev" is not 64 lowercase hex digits';
  if (!line.subarray(MIDDLE_AT, DIGEST_AT).equals(MIDDLE_BYTES)) return 'its second field is not "digest"';
  const digest = line.toString('latin1', DIGEST_AT, TAIL_AT);
  if (!HEX64.test(digest) || line[TAIL_AT] !== 0x22) return 'its "digest" is not 64 lowercase hex digits';
  if (line[line.length - 1] !== 0x7d) return 'it does not end with }';
  const rest = line.subarray(TAIL_AT + 1, line.length - 1);
  if (rest.length === 0) return { prev, digest, body: Buffer.from('{}', 'latin1') };
  if (rest[0] !== 0x2c || rest.length === 1) return 'the digest is not followed by "," and the record\'s members, nor by }';
  return { prev, digest, body: Buffer.concat([Buffer.from('{', 'latin1'), rest.subarray(1), Buffer.from('}', 'latin1')]) };
}
