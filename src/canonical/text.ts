import { RecordShapeError } from './errors.js';
import { jcs } from './jcs.js';
import { jcsTextFast } from './jcs-view.js';
import { isLosslessObject, parseLossless, type LosslessValue } from './lossless.js';
import { python } from './python.js';

/** How JSON text is read: nesting bound, and (for a record) the shape it must have. */
export interface TextOptions {
  /** Deepest nesting accepted (parseLossless's bound; default 512). */
  readonly maxDepth?: number;
  /** The text must be a JSON object without these top-level keys (else a RecordShapeError). */
  readonly record?: { readonly reserved: readonly string[] };
}

/**
 * The canonical form of JSON text, read losslessly (number lexemes kept, duplicate
 * keys refused). For JCS a fast path (jcsTextFast) answers the records it can prove
 * it agrees on; every other text, and every refusal, takes the lossless path, so the
 * errors are the same either way. `fast: false` is for the tests that prove it.
 */
export function canonicalText(text: string, mode: 'jcs' | 'python', options: TextOptions, fast = true): string {
  const maxDepth = options.maxDepth ?? 512;
  if (fast && mode === 'jcs') {
    const out = jcsTextFast(text, maxDepth, options.record?.reserved ?? []);
    if (out !== undefined) return out;
  }
  const value = parseLossless(text, maxDepth);
  if (options.record !== undefined) checkRecord(value, options.record.reserved);
  return mode === 'jcs' ? jcs(value, true) : python(value, true);
}

function checkRecord(value: LosslessValue, reserved: readonly string[]): void {
  if (!isLosslessObject(value)) throw new RecordShapeError('not-object', kindOf(value));
  for (const [key] of value.entries) if (reserved.includes(key)) throw new RecordShapeError('reserved-field', key);
}

function kindOf(value: LosslessValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'a number';
  return `a ${typeof value}`;
}
