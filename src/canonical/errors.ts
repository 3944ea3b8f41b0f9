/** A value the canonical form cannot represent (NaN, infinities, lone surrogates, non-JSON types, integers past 2^53). */
export class CanonicalError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path === '' ? 'the top level' : path}`);
    this.name = 'CanonicalError';
  }
}

/**
 * JSON text read as a record (`jsonText(text, { record })`) that is not one: not an
 * object (`detail` says what it is: `an array`, `null`, ...) or holding a reserved
 * top-level key (`detail` is the key).
 */
export class RecordShapeError extends Error {
  constructor(
    readonly code: 'not-object' | 'reserved-field',
    readonly detail: string,
  ) {
    super(code === 'not-object' ? `a record must be a JSON object, not ${detail}` : `the record has a reserved "${detail}" field`);
    this.name = 'RecordShapeError';
  }
}
