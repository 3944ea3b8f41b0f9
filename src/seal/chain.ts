import { InputError } from '../errors.js';
import type { LineEvent } from '../io/line-splitter.js';
import { canonicalRecord, type SealMode } from './canonical-record.js';
import { LinkWriter, linkBytes, MAX_LINK_BYTES, ZERO_DIGEST } from './layout.js';

/** Where the chain stands after the lines pushed so far. */
export interface ChainState {
  /** Links written. */
  readonly records: number;
  /** Digest of the last link (64 zeros before the first). */
  readonly finalDigest: string;
}

export interface Sealer extends ChainState {
  /** Seals one line of the source: the sealed line with its newline, or null for a blank line. Throws InputError. */
  push(event: LineEvent): string | null;
  /** Seals one line of the source into `out` (nothing for a blank line); false for a blank line. Throws InputError. */
  pushInto(event: LineEvent, out: LinkWriter): boolean;
}

const BLANK = /^[ \t\r]*$/;
/** Bodies up to this many UTF-16 code units (3 UTF-8 bytes each at most) cannot make a link too long. */
const SHORT_BODY = Math.floor((MAX_LINK_BYTES - linkBytes(3)) / 3);

/**
 * Decides about a line that cannot be sealed (the InputError naming it): true
 * leaves it out of the chain (the caller records it), false or a throw stops
 * the seal with that error.
 */
export type UnsealableLine = (error: InputError, records: number) => boolean;

/**
 * Seals records one line at a time, in order; nothing but the previous digest
 * is kept, so memory does not grow with the file. Blank lines are skipped (they
 * hold no record); every other line must be a JSON object its canonical form
 * can represent exactly, or `unsealable` must accept leaving it out.
 */
export function createSealer(file: string, mode: SealMode, maxDepth: number, unsealable: UnsealableLine | null = null): Sealer {
  let records = 0;
  let prev = ZERO_DIGEST;
  let single: LinkWriter | null = null;
  const refuse = (error: InputError): false => {
    if (unsealable === null || !unsealable(error, records)) throw error;
    return false;
  };
  const pushInto = (event: LineEvent, out: LinkWriter): boolean => {
    if (event.type === 'bad-line') return refuse(new InputError(file, event.line, `seal-${event.code}`, `${file}:${event.line}: cannot be sealed: ${event.detail}`));
    if (BLANK.test(event.text)) return false;
    let body: string;
    try {
      body = canonicalRecord(event.text, file, event.line, mode, maxDepth);
    } catch (error) {
      if (error instanceof InputError) return refuse(error);
      throw error;
    }
    if (body.length > SHORT_BODY && linkBytes(Buffer.byteLength(body, 'utf8')) > MAX_LINK_BYTES) {
      return refuse(new InputError(file, event.line, 'seal-line-too-long', `${file}:${event.line}: the sealed record would be longer than ${MAX_LINK_BYTES} bytes`));
    }
    prev = out.append(prev, records, body);
    records += 1;
    return true;
  };
  return {
    get records() {
      return records;
    },
    get finalDigest() {
      return prev;
    },
    pushInto,
    push(event: LineEvent): string | null {
      single ??= new LinkWriter(4096);
      return pushInto(event, single) ? single.take().toString('utf8') : null;
    },
  };
}

/** Seals a whole in-memory text (tests, small inputs): the sealed text and the final state. */
export function sealText(text: string, file: string, mode: SealMode = 'jcs', maxDepth = 256): { sealed: string } & ChainState {
  const sealer = createSealer(file, mode, maxDepth);
  const parts: string[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, i) => {
    const link = sealer.push({ type: 'line', line: i + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line, terminated: true });
    if (link !== null) parts.push(link);
  });
  return { sealed: parts.join(''), records: sealer.records, finalDigest: sealer.finalDigest };
}
