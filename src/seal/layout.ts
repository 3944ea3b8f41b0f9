import { createHash } from 'node:crypto';

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
