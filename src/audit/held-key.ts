/**
 * A call or response key as a held record keeps it (issue 22): the same identity as
 * call-identity.ts makes, in fewer bytes. A digest key (`#` and 64 hex digits) is kept
 * as `#` and its 32 bytes as Latin-1 characters; a whole key (64 characters at most)
 * is copied into one flat string, not the tree of pieces a template literal leaves.
 * Keys are only compared with each other, never printed: a whole key never starts
 * with `#`, so the two forms never meet, and distinct digests stay distinct.
 */
const DIGEST_KEY_LENGTH = 65;
const LATIN1 = /^[\u0000-\u00ff]*$/;

export function packKey(key: string | null): string | null {
  if (key === null) return null;
  if (key.length === DIGEST_KEY_LENGTH && key.charCodeAt(0) === 0x23) {
    const bytes = Buffer.allocUnsafe(33);
    bytes[0] = 0x23;
    bytes.write(key.slice(1), 1, 'hex');
    return bytes.toString('latin1');
  }
  return LATIN1.test(key) ? Buffer.from(key, 'latin1').toString('latin1') : key;
}
