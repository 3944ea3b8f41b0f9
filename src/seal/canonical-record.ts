import { CanonicalError, isLosslessObject, jcsLossless, LosslessParseError, parseLossless, type LosslessObject } from '../canonical/index.js';
import { jcsRecordFast } from '../canonical/jcs-fast.js';
import { pythonLossless } from '../canonical/python.js';
import { InputError, UsageError } from '../errors.js';

/** The canonical forms a record can be sealed in; the checkpoint records which one was used. */
export const SEAL_MODES = ['jcs', 'python'] as const;
export type SealMode = (typeof SEAL_MODES)[number];

/** Fields the chain adds to every record; a record that already has one cannot be sealed. */
export const RESERVED_FIELDS = ['prev', 'digest'] as const;

/** Whether this build can seal in `mode` (every mode in SEAL_MODES). */
export function sealModeAvailable(mode: SealMode): boolean {
  return (SEAL_MODES as readonly string[]).includes(mode);
}

/** Throws a usage error for a mode this build cannot produce. */
export function requireSealMode(mode: SealMode): void {
  if (!sealModeAvailable(mode)) throw new UsageError(`--canonical must be one of ${SEAL_MODES.join(', ')}, not ${JSON.stringify(mode)}`);
}

/**
 * The canonical bytes of one record line in `mode`, or an InputError naming
 * file and line when the line is not a JSON object or holds something the
 * form cannot represent exactly (duplicate keys, NaN, lone surrogates,
 * integers beyond 2^53): we never hash something other than what is in the file.
 */
export function canonicalRecord(text: string, file: string, line: number, mode: SealMode, maxDepth: number): string {
  if (mode === 'jcs') {
    const fast = jcsRecordFast(text, maxDepth, RESERVED_FIELDS);
    if (fast !== undefined) return fast;
  }
  return canonicalRecordLossless(text, file, line, mode, maxDepth);
}

/**
 * canonicalRecord without the fast path: every number lexeme kept. The fast path
 * gives the same text whenever it gives one, and leaves every refusal to this.
 */
export function canonicalRecordLossless(text: string, file: string, line: number, mode: SealMode, maxDepth: number): string {
  const where = `${file}:${line}`;
  let value;
  try {
    value = parseLossless(text, maxDepth);
  } catch (error) {
    if (error instanceof LosslessParseError) {
      const spread = /^\s*[[{]\s*$/.test(text) || /end of input/.test(error.message);
      const hint = spread ? '; seal reads JSON Lines, one record per line: put a JSON document written over several lines on one line first (jq -c)' : '';
      throw new InputError(file, line, 'seal-not-json', `${where}: not a JSON record (${error.message})${hint}`);
    }
    throw error;
  }
  if (!isLosslessObject(value)) throw new InputError(file, line, 'seal-not-object', `${where}: a record must be a JSON object, not ${kindOf(value)}`);
  for (const [key] of value.entries) {
    if ((RESERVED_FIELDS as readonly string[]).includes(key)) {
      throw new InputError(file, line, 'seal-reserved-field', `${where}: the record already has a "${key}" field, which sealing adds (is the file sealed already?)`);
    }
  }
  try {
    return canonicalText(value, mode);
  } catch (error) {
    if (error instanceof CanonicalError) throw new InputError(file, line, 'seal-unrepresentable', `${where}: cannot be sealed in ${mode} form: ${error.message}`);
    throw error;
  }
}

function canonicalText(value: LosslessObject, mode: SealMode): string {
  switch (mode) {
    case 'jcs':
      return jcsLossless(value);
    case 'python':
      return pythonLossless(value);
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'a number';
  return `a ${typeof value}`;
}
