import { createHash } from 'node:crypto';
import { jcs } from './jcs.js';

export { CanonicalError, jcs, jcsLossless } from './jcs.js';
export * from './lossless.js';

/** The canonical JSON forms the tool can produce. */
export type CanonicalMode = 'jcs';

export function canonicalize(value: unknown, mode: CanonicalMode = 'jcs'): string {
  switch (mode) {
    case 'jcs':
      return jcs(value);
  }
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of the canonical UTF-8 bytes of a value. */
export function canonicalSha256(value: unknown, mode: CanonicalMode = 'jcs'): string {
  return sha256Hex(Buffer.from(canonicalize(value, mode), 'utf8'));
}
