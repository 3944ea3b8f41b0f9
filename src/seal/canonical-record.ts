import { CanonicalError, canonicalize, jsonText, LosslessParseError, RecordShapeError } from '../canonical/index.js';
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
  try {
    return canonicalize(jsonText(text, { maxDepth, record: { reserved: RESERVED_FIELDS } }), mode);
  } catch (error) {
    throw sealError(error, text, file, line, mode);
  }
}

/** The seal's InputError for what canonicalize refused (anything else is a bug, passed on). */
export function sealError(error: unknown, text: string, file: string, line: number, mode: SealMode): unknown {
  const where = `${file}:${line}`;
  if (error instanceof LosslessParseError) {
    const spread = /^\s*[[{]\s*$/.test(text) || /end of input/.test(error.message);
    const hint = spread ? '; seal reads JSON Lines, one record per line: put a JSON document written over several lines on one line first (jq -c)' : '';
    return new InputError(file, line, 'seal-not-json', `${where}: not a JSON record (${error.message})${hint}`);
  }
  if (error instanceof RecordShapeError) {
    if (error.code === 'not-object') return new InputError(file, line, 'seal-not-object', `${where}: a record must be a JSON object, not ${error.detail}`);
    return new InputError(file, line, 'seal-reserved-field', `${where}: the record already has a "${error.detail}" field, which sealing adds (is the file sealed already?)`);
  }
  if (error instanceof CanonicalError) return new InputError(file, line, 'seal-unrepresentable', `${where}: cannot be sealed in ${mode} form: ${error.message}`);
  return error;
}
