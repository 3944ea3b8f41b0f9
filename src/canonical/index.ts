import * as nodeCrypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { jcs, jcsLossless } from './jcs.js';
import { parseLossless, type LosslessValue } from './lossless.js';
import { python, pythonLossless } from './python.js';

export { CanonicalError, compareUtf16, jcs, jcsLossless } from './jcs.js';
export * from './lossless.js';
export { compareCodePoints, python, pythonFloat, pythonLossless, pythonString } from './python.js';

/**
 * The canonical JSON forms the tool can produce: RFC 8785 (`jcs`) and Python's
 * `json.dumps(obj, sort_keys=True, separators=(",", ":"))` (`python`).
 */
export type CanonicalMode = 'jcs' | 'python';

export const CANONICAL_MODES: readonly CanonicalMode[] = ['jcs', 'python'];

export function canonicalize(value: unknown, mode: CanonicalMode = 'jcs'): string {
  switch (mode) {
    case 'jcs':
      return jcs(value);
    case 'python':
      return python(value);
  }
}

/** Canonical form of a value from parseLossless (number lexemes kept). */
export function canonicalizeLossless(value: LosslessValue, mode: CanonicalMode = 'jcs'): string {
  switch (mode) {
    case 'jcs':
      return jcsLossless(value);
    case 'python':
      return pythonLossless(value);
  }
}

/** Canonical form of JSON text, read losslessly (for `python`: as `json.loads` would read it). */
export function canonicalizeText(text: string, mode: CanonicalMode = 'jcs'): string {
  return canonicalizeLossless(parseLossless(text), mode);
}

/**
 * SHA-256 in hex of bytes or of a string's UTF-8: one call and no Hash object where
 * Node has crypto.hash (20.12+, and the Action's node24), createHash elsewhere.
 */
export const sha256Hex: (data: string | Uint8Array) => string =
  typeof nodeCrypto.hash === 'function'
    ? (data) => nodeCrypto.hash('sha256', data, 'hex')
    : (data) => createHash('sha256').update(data).digest('hex');

/** SHA-256 of the canonical UTF-8 bytes of a value. */
export function canonicalSha256(value: unknown, mode: CanonicalMode = 'jcs'): string {
  return sha256Hex(Buffer.from(canonicalize(value, mode), 'utf8'));
}

/** SHA-256 of the canonical UTF-8 bytes of a lossless value. */
export function canonicalSha256Lossless(value: LosslessValue, mode: CanonicalMode = 'jcs'): string {
  return sha256Hex(Buffer.from(canonicalizeLossless(value, mode), 'utf8'));
}
