import * as nodeCrypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { jcs } from './jcs.js';
import type { LosslessValue } from './lossless.js';
import { python } from './python.js';
import { canonicalText, type TextOptions } from './text.js';

export { CanonicalError, RecordShapeError } from './errors.js';
export * from './lossless.js';
export { compareCodePoints, compareUtf16 } from './order.js';
export type { TextOptions } from './text.js';

/**
 * The canonical JSON forms the tool can produce: RFC 8785 (`jcs`) and Python's
 * `json.dumps(obj, sort_keys=True, separators=(",", ":"))` (`python`).
 */
export type CanonicalMode = 'jcs' | 'python';

export const CANONICAL_MODES: readonly CanonicalMode[] = ['jcs', 'python'];

/** A value from parseLossless, to canonicalize with its number lexemes: `lossless(value)`. */
class LosslessInput {
  constructor(readonly value: LosslessValue) {}
}

/** JSON text, to canonicalize as read losslessly: `jsonText(text, options)`. */
class TextInput {
  constructor(
    readonly text: string,
    readonly options: TextOptions,
  ) {}
}

/** Marks a parseLossless value for canonicalize (number lexemes kept: `1.0` stays a float in Python form, 2^53+1 is refused by JCS). */
export function lossless(value: LosslessValue): LosslessInput {
  return new LosslessInput(value);
}

/** Marks JSON text for canonicalize: read losslessly, bounded by `maxDepth`, optionally required to be a record. */
export function jsonText(text: string, options: TextOptions = {}): TextInput {
  return new TextInput(text, options);
}

/**
 * The one way to canonical JSON. `input` is a plain JavaScript value, `lossless(v)`
 * for a parseLossless value, or `jsonText(text)` for JSON text (the seal's records;
 * JCS has a fast path inside, proven equal by tests). Throws a CanonicalError for a
 * value the form cannot represent; for text also a LosslessParseError or (with
 * `record`) a RecordShapeError. (A trace can never make a plain value look like
 * either marker: they are class instances, which no JSON parser creates.)
 */
export function canonicalize(input: unknown, mode: CanonicalMode = 'jcs'): string {
  if (input instanceof TextInput) return canonicalText(input.text, mode, input.options);
  const isLossless = input instanceof LosslessInput;
  const value = isLossless ? input.value : input;
  return mode === 'jcs' ? jcs(value, isLossless) : python(value, isLossless);
}

/**
 * SHA-256 in hex of bytes or of a string's UTF-8: one call and no Hash object where
 * Node has crypto.hash (20.12+, and the Action's node24), createHash elsewhere.
 */
export const sha256Hex: (data: string | Uint8Array) => string =
  typeof nodeCrypto.hash === 'function'
    ? (data) => nodeCrypto.hash('sha256', data, 'hex')
    : (data) => createHash('sha256').update(data).digest('hex');

/** SHA-256 of bytes or of a string's UTF-8, as its 32 bytes (crypto.hash where Node has it, as sha256Hex). */
export const sha256Bytes: (data: string | Uint8Array) => Buffer =
  typeof nodeCrypto.hash === 'function' ? (data) => nodeCrypto.hash('sha256', data, 'buffer') : (data) => createHash('sha256').update(data).digest();

/** SHA-256 of the canonical UTF-8 bytes of `input` (anything canonicalize takes). */
export function canonicalSha256(input: unknown, mode: CanonicalMode = 'jcs'): string {
  return sha256Hex(Buffer.from(canonicalize(input, mode), 'utf8'));
}
