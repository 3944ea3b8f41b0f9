import type { PathStep } from './list-paths.js';

/** Where an item of a streamed list is: its list, path and lines, and the document's rest before it. */
export interface ElementPlace {
  /** The list pattern it matched, as written (`$.events[*]`). */
  readonly list: string;
  readonly path: readonly PathStep[];
  /** 1-based line of its first character, and of the `[` of its list. */
  readonly line: number;
  readonly listLine: number;
  /** The document's rest before it: the first `restBytes` bytes of `restText()`, closed by `closers`. */
  readonly restBytes: number;
  readonly closers: string;
}

/** One item of a streamed list: its text (parse it with JSON.parse) and where it begins. */
export interface ScannedElement extends ElementPlace {
  readonly kind: 'element';
  readonly text: string;
}

/** An item past the element cap: passed over without being kept (reading goes on). */
export interface OversizedElement extends ElementPlace {
  readonly kind: 'oversized';
}

/** The document is not JSON here (or ends early): scanning stops. */
export interface ScanError {
  readonly kind: 'error';
  readonly line: number;
  readonly message: string;
}

export type ScanEvent = ScannedElement | OversizedElement | ScanError;

export interface ScannerOptions {
  /** Lists whose items are elements (see list-paths.ts). */
  readonly lists: readonly string[];
  /** Largest element kept, in bytes; a larger one is an `oversized` event. */
  readonly maxElementBytes: number;
  /** Largest rest of the document (everything outside the streamed lists), in bytes. */
  readonly maxRestBytes: number;
  /**
   * Lists whose items are left out of the rest once read (the rest holds them as
   * `[]`), while the streamed lists inside them are still walked: what a reader
   * that needs only the elements keeps of, say, an OTLP document's
   * `resourceSpans`. An item that is not JSON stays in, for the rest's parse to
   * report. Elements inside such an item get a head without it.
   */
  readonly hollow?: readonly string[];
}
