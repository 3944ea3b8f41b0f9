export const enum Mode {
  Struct,
  /** Inside a value read whole (an element, or a value of the rest). */
  Value,
  Done,
  Failed,
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isScalarByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x2b || c === 0x2e;
}

const QUOTE = 1;
const OPEN = 2;
const CLOSE = 3;
const LF = 4;
/** What a byte outside strings does inside a value read whole: 0 nothing, else one of the kinds above. */
const BYTE_KIND = new Uint8Array(256);
BYTE_KIND[0x22] = QUOTE;
BYTE_KIND[0x7b] = OPEN;
BYTE_KIND[0x5b] = OPEN;
BYTE_KIND[0x7d] = CLOSE;
BYTE_KIND[0x5d] = CLOSE;
BYTE_KIND[0x0a] = LF;

/**
 * The byte-level half of JsonStreamScanner (scanner.ts): the line count, and
 * reading on inside a value read whole (an element, or a value of the rest),
 * by brackets and strings, across chunk ends. Its state is the scanner's own
 * (a base class: the hot loops read plain fields of one object).
 */
export abstract class ValueLexer {
  protected mode = Mode.Struct;
  protected line = 1;
  /** Whether the bytes now read are copied into the rest; LFs outside it are counted in `elided`. */
  protected copying = true;
  protected elided = 0;
  // The value being read whole.
  protected depth = 0;
  protected inString = false;
  protected scalar = false;
  protected backslashes = 0;

  protected beginValue(c: number): void {
    this.mode = Mode.Value;
    this.depth = c === 0x7b || c === 0x5b ? 1 : 0;
    this.inString = c === 0x22;
    this.scalar = !this.inString && this.depth === 0;
    this.backslashes = 0;
  }

  /** Reads on in the value; returns the offset just past its end, or -1 when it goes on past the chunk. */
  protected scanValue(chunk: Buffer, from: number): number {
    const n = chunk.length;
    let i = from;
    if (this.scalar) {
      while (i < n && isScalarByte(chunk[i]!)) i += 1;
      if (i === n) return -1;
      this.scalar = false;
      return i;
    }
    for (;;) {
      if (this.inString) {
        const q = this.stringEnd(chunk, i);
        if (q < 0) return -1;
        this.inString = false;
        i = q + 1;
        if (this.depth === 0) return i;
        continue;
      }
      for (;;) {
        if (i >= n) return -1;
        // One table load tells the bytes that matter from the rest (indentation, digits, ",", ":").
        const kind = BYTE_KIND[chunk[i]!]!;
        i += 1;
        if (kind === 0) continue;
        if (kind === QUOTE) {
          this.inString = true;
          this.backslashes = 0;
          break;
        }
        if (kind === OPEN) this.depth += 1;
        else if (kind === CLOSE) {
          this.depth -= 1;
          if (this.depth === 0) return i;
        } else {
          this.line += 1;
          if (!this.copying) this.elided += 1;
        }
      }
    }
  }

  /** The offset of the quote that ends the string being read, or -1 (the backslashes before the chunk's end are carried). */
  protected stringEnd(chunk: Buffer, from: number): number {
    let i = from;
    for (;;) {
      const q = chunk.indexOf(0x22, i);
      const stop = q < 0 ? chunk.length : q;
      let run = 0;
      let j = stop - 1;
      while (j >= i && chunk[j] === 0x5c) {
        run += 1;
        j -= 1;
      }
      if (j < i && i === from) run += this.backslashes;
      if (q < 0) {
        this.backslashes = run;
        return -1;
      }
      this.backslashes = 0;
      if (run % 2 === 0) return q;
      i = q + 1;
    }
  }
}
