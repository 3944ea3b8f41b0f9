/**
 * Secrets hidden in base64: a git credential (`x-access-token:ghs_…`), a basic
 * auth pair or a whole .env file shipped as a blob. Runs of base64 characters
 * long enough to hold a credential are decoded; when the bytes are mostly
 * printable text and that text holds a secret, the whole blob is a secret.
 * Binary data (hashes, images, commit SHAs, UUIDs) decodes to noise and is left alone.
 */
import { mayDecodeToText } from './base64-text.js';

/** Shortest run worth decoding: base64 of a 20-character AWS key id is 28 characters. */
const MIN_RUN = 24;
/** Longest run decoded (larger blobs are file contents, scanned in pieces would mislead). */
const MAX_RUN = 1 << 20;
/** Share of decoded characters that must be printable text. */
const MIN_PRINTABLE = 0.9;

// Standard and URL-safe alphabets, optional padding; not inside a longer word.
const RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}={0,2}/g;

export interface Base64Secret {
  /** The encoded run exactly as it appears in the text. */
  readonly blob: string;
  /** Id of the secret pattern found in the decoded text. */
  readonly ruleId: string;
}

/**
 * Every base64 run of `text` whose decoded text `detect` says holds a secret
 * (detect returns the pattern id, or null). Each distinct run is reported once.
 */
export function findBase64Secrets(text: string, detect: (decoded: string) => string | null): Base64Secret[] {
  const out: Base64Secret[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(RUN)) {
    const blob = match[0];
    if (blob.length < MIN_RUN || blob.length > MAX_RUN || seen.has(blob)) continue;
    seen.add(blob);
    // A run that starts mid-block (glued to a label) decodes at a later offset.
    for (let offset = 0; offset < 4; offset += 1) {
      const decoded = decodeText(blob.slice(offset));
      if (decoded === null) continue;
      const ruleId = detect(decoded);
      if (ruleId !== null) out.push({ blob, ruleId });
      break;
    }
  }
  return out;
}

/** The decoded text when the run is plausible base64 of text, else null. */
export function decodeText(run: string): string | null {
  const body = run.replace(/=+$/, '');
  if (body.length < MIN_RUN - 2 || body.length % 4 === 1) return null;
  // Most runs (ids, hashes, paths) are settled here, before any Buffer or string is made.
  if (!mayDecodeToText(body, MIN_PRINTABLE)) return null;
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length === 0) return null;
  const decoded = bytes.toString('utf8');
  return printableShare(decoded) >= MIN_PRINTABLE ? decoded : null;
}

/** The share of a decoded text's characters that are printable (tab, newline and CR count; U+FFFD and C1 controls do not); 0 for an empty text. */
export function printableShare(decoded: string): number {
  let printable = 0;
  let total = 0;
  for (const ch of decoded) {
    total += 1;
    const c = ch.codePointAt(0)!;
    if ((c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0xa0 && c !== 0xfffd)) printable += 1;
  }
  return total === 0 ? 0 : printable / total;
}
