import { linkDigest, parseLink, ZERO_DIGEST, type ParsedLink } from '../layout.js';
import type { RawLine } from '../raw-lines.js';

/** The first link that does not hold, with what the chain expected there and what the file has. */
export interface BrokenLink {
  /** 0-based position of the link (= line number - 1). */
  readonly index: number;
  readonly expected: string;
  /** The hex found in the file, or null when the line is not a link at all. */
  readonly found: string | null;
  readonly reason: string;
}

/** What walking the chain found, before any checkpoint is consulted. */
export interface ChainResult {
  /** Lines in the file (every line is meant to be one link). */
  readonly lines: number;
  /** Links verified in a row from the start. */
  readonly intact: number;
  /** Digest of the last verified link (64 zeros when none). */
  readonly finalDigest: string;
  readonly broken: BrokenLink | null;
  /** Digest after `mark` verified links, when the chain got that far intact. */
  readonly markDigest: string | null;
  /** Whether any line has the layout of a sealed link: a file with none was never sealed. */
  readonly anyLink: boolean;
}

export interface ChainVerifier {
  push(line: RawLine): void;
  result(): ChainResult;
}

/**
 * Checks links in order, keeping only the running digest: for link n the
 * line must have the layout of docs/sealing.md, its prev must be the digest of
 * link n-1, and its digest must be SHA-256(prev "\n" n "\n" body). After the
 * first broken link the rest is only counted. `mark` asks for the digest after
 * that many links (the checkpoint's record count), to tell appended lines from a
 * different file.
 */
export function createChainVerifier(mark: number | null = null): ChainVerifier {
  let lines = 0;
  let intact = 0;
  let running = ZERO_DIGEST;
  let broken: BrokenLink | null = null;
  let markDigest: string | null = mark === 0 ? ZERO_DIGEST : null;
  let anyLink = false;
  const check = (line: RawLine, index: number): BrokenLink | null => {
    const where = `line ${index + 1}`;
    if (line.bytes === null) return { index, expected: running, found: null, reason: `${where} is ${line.length} bytes long, more than a sealed record can be` };
    const crlf = withoutCr(line.bytes);
    if (crlf !== null) {
      // A link whose line end became CR LF (a Windows checkout, an editor): a changed file, said plainly.
      anyLink = true;
      return { index, expected: running, found: crlf.prev, reason: `${where} ends with a CR byte (0x0D) before its LF: the file's line ends were changed to CRLF after sealing, and every byte of a sealed line is sealed` };
    }
    const link = parseLink(line.bytes);
    if (typeof link === 'string') return { index, expected: running, found: null, reason: `${where} is not a sealed link: ${link}` };
    anyLink = true;
    if (link.prev !== running) {
      const what = index === 0 ? 'the first link must start from 64 zeros' : `"prev" is not the digest of line ${index}`;
      return { index, expected: running, found: link.prev, reason: `${where}: ${what} (a line was removed, inserted or moved here)` };
    }
    const digest = linkDigest(running, index, link.body);
    if (link.digest !== digest) return { index, expected: digest, found: link.digest, reason: `${where}: "digest" does not match the record (the record or its digest was edited)` };
    if (!line.terminated) return { index, expected: digest, found: link.digest, reason: `${where} has no newline at its end (the file was cut here)` };
    running = digest;
    return null;
  };
  return {
    push(line: RawLine): void {
      const index = lines;
      lines += 1;
      if (broken !== null) {
        // Only to tell a file that was never sealed from a broken chain: stops at the first link.
        if (!anyLink && line.bytes !== null && (typeof parseLink(line.bytes) !== 'string' || withoutCr(line.bytes) !== null)) anyLink = true;
        return;
      }
      broken = check(line, index);
      if (broken === null) {
        intact += 1;
        if (mark !== null && intact === mark) markDigest = running;
      }
    },
    result: () => ({ lines, intact, finalDigest: running, broken, markDigest, anyLink }),
  };
}

/** The link a line holds once the CR that ends it is dropped, when it ends in CR and is a link then; null otherwise. */
function withoutCr(bytes: Buffer): ParsedLink | null {
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0x0d) return null;
  const link = parseLink(bytes.subarray(0, bytes.length - 1));
  return typeof link === 'string' ? null : link;
}
