/** A JSON value as parseLossless (src/canonical/lossless.ts) reads it: number lexemes and member order kept. */
export type LosslessValue = null | boolean | string | LosslessNumber | LosslessValue[] | LosslessObject;

export interface LosslessNumber {
  readonly kind: 'number';
  /** The number exactly as written in the source. */
  readonly text: string;
}

export interface LosslessObject {
  readonly kind: 'object';
  /** Members in source order; keys are unique. */
  readonly entries: ReadonlyArray<readonly [string, LosslessValue]>;
}
