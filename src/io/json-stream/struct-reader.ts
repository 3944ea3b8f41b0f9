import type { PathStep } from './list-paths.js';
import type { ScanEvent } from './scan-events.js';
import { Mode, ValueLexer } from './value-lexer.js';

/** An open container of the structure along the patterns. */
export interface Frame {
  readonly array: boolean;
  /** A list whose items are elements: they (and its commas) stay out of the rest. */
  readonly streamed: boolean;
  /** A hollow list (ScannerOptions.hollow): each item, once read, is dropped from the rest. */
  readonly hollow: boolean;
  /** In a hollow list: where the current item begins in the rest. */
  itemStart: number;
  readonly line: number;
  /** object: 0 key or end, 1 colon, 2 value, 3 comma or end, 4 key; array: 0 value or end, 2 value, 3 comma or end. */
  state: number;
  index: number;
  key: string | null;
}

/** One push: its chunk, the events it gives, and where the rest's and the element's copies of the chunk start (-1: none). */
export interface Pass {
  readonly chunk: Buffer;
  readonly events: ScanEvent[];
  readonly from: number;
  restFrom: number;
  valueFrom: number;
}

/**
 * The structure along the patterns, between JsonStreamScanner (scanner.ts) and
 * its value reading (value-lexer.ts): the open containers, their keys and
 * indexes, and the bytes that move them (a key, ":", ",", "]", "}").
 */
export abstract class StructReader extends ValueLexer {
  protected readonly frames: Frame[] = [];
  // A struct key being read (its raw bytes).
  protected keyPieces: Buffer[] | null = null;

  /** A streamed list's "]" at `at`. */
  protected abstract listCloses(p: Pass, at: number): void;
  /** A hollow list's "," or "]" at `at`: its item before it ends. */
  protected abstract itemEnds(p: Pass, at: number, top: Frame, comma: boolean): void;

  /** Reads on in a key of the structure; at its closing quote, the key is its object's. */
  protected readKey(p: Pass, i: number): number {
    const pieces = this.keyPieces!;
    const q = this.stringEnd(p.chunk, i);
    if (q < 0) {
      pieces.push(Buffer.from(p.chunk.subarray(i, p.chunk.length)));
      return p.chunk.length;
    }
    pieces.push(Buffer.from(p.chunk.subarray(i, q + 1)));
    const raw = Buffer.concat(pieces).toString('utf8');
    this.keyPieces = null;
    let key: string;
    try {
      key = JSON.parse(`"${raw}`) as string;
    } catch {
      this.fail(p, 'a key of the document is not a JSON string');
      return i;
    }
    const top = this.frames[this.frames.length - 1]!;
    top.key = key;
    top.state = 1;
    return q + 1;
  }

  /** A "]" or "," of a list of the structure. */
  protected arrayByte(p: Pass, i: number, c: number, top: Frame): number {
    if (c === 0x5d && top.state !== 2) {
      if (top.streamed) this.listCloses(p, i);
      if (top.hollow) this.itemEnds(p, i, top, false);
      this.frames.pop();
      this.valueDone();
    } else if (c === 0x2c && top.state === 3) {
      if (top.hollow) this.itemEnds(p, i, top, true);
      top.state = 2;
      top.index += 1;
    } else {
      this.fail(p, `expected "," or "]" in the list that begins on line ${top.line}`);
      return i;
    }
    return i + 1;
  }

  /** A key's opening quote, a ":", "," or "}" of an object of the structure. */
  protected objectByte(p: Pass, i: number, c: number, top: Frame): number {
    if (c === 0x22 && (top.state === 0 || top.state === 4)) {
      this.keyPieces = [];
      this.backslashes = 0;
    } else if (c === 0x3a && top.state === 1) {
      top.state = 2;
    } else if (c === 0x2c && top.state === 3) {
      top.state = 4;
    } else if (c === 0x7d && (top.state === 0 || top.state === 3)) {
      this.frames.pop();
      this.valueDone();
    } else {
      this.fail(p, `unexpected ${JSON.stringify(String.fromCharCode(c))} in the object that begins on line ${top.line}`);
      return i;
    }
    return i + 1;
  }

  protected fail(p: Pass, message: string, line = this.line): void {
    this.mode = Mode.Failed;
    p.events.push({ kind: 'error', line, message });
  }

  /** Set by `fail` (a call the type checker does not follow when it narrows `mode`). */
  protected failed(): boolean {
    return this.mode === Mode.Failed;
  }

  /** The path of the value at the current position (each open container's key or index). */
  protected path(): PathStep[] {
    return this.frames.map((f) => (f.array ? f.index : f.key!));
  }

  protected closers(): string {
    let out = '';
    for (let k = this.frames.length - 1; k >= 0; k -= 1) out += this.frames[k]!.array ? ']' : '}';
    return out;
  }

  protected valueDone(): void {
    this.mode = this.frames.length === 0 ? Mode.Done : Mode.Struct;
    this.scalar = false;
    const top = this.frames[this.frames.length - 1];
    if (top) top.state = 3;
  }
}
