import { compileListPattern, containerNeeded, describePath, elementPattern, type ListPattern, type PathStep } from './list-paths.js';

interface ElementPlace {
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
}

interface Frame {
  readonly array: boolean;
  /** A list whose items are elements: they (and its commas) stay out of the rest. */
  readonly streamed: boolean;
  readonly line: number;
  /** object: 0 key or end, 1 colon, 2 value, 3 comma or end, 4 key; array: 0 value or end, 2 value, 3 comma or end. */
  state: number;
  index: number;
  key: string | null;
}

const enum Mode {
  Struct,
  /** Inside a value read whole (an element, or a value of the rest). */
  Value,
  Done,
  Failed,
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isScalarByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x2b || c === 0x2e;
}

/**
 * Walks a JSON document given in chunks of bytes, with memory bounded by the
 * largest element: the items of the named lists come out one by one as text
 * (byte for byte what the document holds, decoded as UTF-8 the way
 * `Buffer.toString` decodes the whole file), and everything else, the small
 * rest of the document, is kept with those lists written `[]`. Only the
 * structure along the patterns is followed; every other value is passed over
 * by brackets and strings (JSON.parse then checks what was kept). Lines count
 * the LF bytes outside strings, as json-locate.ts counts them.
 */
export class JsonStreamScanner {
  private readonly patterns: ListPattern[];
  private readonly frames: Frame[] = [];
  private mode = Mode.Struct;
  private line = 1;
  private first = true;
  private lead = Buffer.alloc(0);
  // The rest: pieces copied, and whether the bytes now read are copied.
  private readonly rest: Buffer[] = [];
  private restSize = 0;
  private copying = true;
  private readonly checkpoints: Array<{ readonly restBytes: number; readonly elided: number }> = [{ restBytes: 0, elided: 0 }];
  private elided = 0;
  // The value being read whole.
  private depth = 0;
  private inString = false;
  private scalar = false;
  private backslashes = 0;
  private element: { list: string; path: PathStep[]; line: number; listLine: number; restBytes: number; closers: string; pieces: Buffer[] | null; size: number } | null = null;
  // A struct key being read (its raw bytes).
  private keyPieces: Buffer[] | null = null;

  private skipping = false;

  constructor(private readonly options: ScannerOptions) {
    this.patterns = options.lists.map(compileListPattern);
  }

  /** From the next element on, pass elements over without keeping them (a read for the rest only). */
  skipElements(): void {
    this.skipping = true;
  }

  /** The rest of the document read so far (lists written `[]`), its first `bytes` bytes. */
  restText(bytes = this.restSize): string {
    return Buffer.concat(this.rest, this.restSize).subarray(0, bytes).toString('utf8');
  }

  /**
   * Where lines were taken out of the rest (a streamed list's items), for the
   * rest's first `bytes` bytes as text: character offsets and line counts,
   * what `indexLines` takes as jumps to give the file's lines.
   */
  restJumps(bytes = this.restSize): Array<{ at: number; lines: number }> {
    const all = Buffer.concat(this.rest, this.restSize);
    const jumps: Array<{ at: number; lines: number }> = [];
    let chars = 0;
    let from = 0;
    let elided = 0;
    for (const point of this.checkpoints) {
      if (point.restBytes > bytes) break;
      // Checkpoints sit at a "]": an ASCII byte, so the text before it decodes on its own.
      chars += all.subarray(from, point.restBytes).toString('utf8').length;
      from = point.restBytes;
      if (point.elided > elided) jumps.push({ at: chars, lines: point.elided - elided });
      elided = point.elided;
    }
    return jumps;
  }

  /** The line in the file of a character offset in the complete rest text (for a parse error found there). */
  restLine(text: string, offset: number): number {
    let line = 1;
    for (const jump of this.restJumps()) if (jump.at <= offset) line += jump.lines;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
    return line;
  }

  push(chunk: Buffer): ScanEvent[] {
    const events: ScanEvent[] = [];
    if (this.mode === Mode.Failed) return events;
    let i = 0;
    if (this.first) {
      // A byte order mark is dropped (it may come split over chunks).
      const lead = this.lead.length === 0 ? chunk : Buffer.concat([this.lead, chunk]);
      const prefix = Math.min(3, lead.length);
      if (lead.subarray(0, prefix).equals(BOM.subarray(0, prefix)) && prefix < 3) {
        this.lead = Buffer.from(lead);
        return events;
      }
      this.first = false;
      this.lead = Buffer.alloc(0);
      chunk = lead;
      if (prefix === 3 && lead.subarray(0, 3).equals(BOM)) i = 3;
    }
    let restFrom = this.copying ? i : -1;
    let valueFrom = this.element?.pieces ? i : -1;
    const n = chunk.length;
    const stopCopy = (at: number) => {
      if (restFrom >= 0 && at > restFrom) this.addRest(chunk.subarray(restFrom, at));
      restFrom = -1;
      this.copying = false;
    };
    const startCopy = (at: number) => {
      restFrom = at;
      this.copying = true;
      this.checkpoints.push({ restBytes: this.restSize, elided: this.elided });
    };
    const fail = (message: string, line = this.line) => {
      this.mode = Mode.Failed;
      events.push({ kind: 'error', line, message });
    };
    while (i < n && !this.failed()) {
      if (this.mode === Mode.Value) {
        const end = this.scanValue(chunk, i);
        if (end < 0) {
          i = n;
          break;
        }
        if (this.element) {
          const el = this.element;
          if (el.pieces) {
            this.addPiece(el, chunk.subarray(valueFrom, end));
            valueFrom = -1;
          }
          this.element = null;
          const { pieces, size, ...place } = el;
          if (pieces) events.push({ kind: 'element', ...place, text: Buffer.concat(pieces, size).toString('utf8') });
          else if (size > this.options.maxElementBytes) events.push({ kind: 'oversized', ...place });
        }
        this.valueDone();
        i = end;
        continue;
      }
      if (this.keyPieces) {
        const q = this.stringEnd(chunk, i);
        if (q < 0) {
          this.keyPieces.push(Buffer.from(chunk.subarray(i, n)));
          i = n;
          break;
        }
        this.keyPieces.push(Buffer.from(chunk.subarray(i, q + 1)));
        const raw = Buffer.concat(this.keyPieces).toString('utf8');
        this.keyPieces = null;
        let key: string;
        try {
          key = JSON.parse(`"${raw}`) as string;
        } catch {
          fail('a key of the document is not a JSON string');
          break;
        }
        const top = this.frames[this.frames.length - 1]!;
        top.key = key;
        top.state = 1;
        i = q + 1;
        continue;
      }
      const c = chunk[i]!;
      if (c === 0x0a) {
        this.line += 1;
        if (!this.copying) this.elided += 1;
      }
      if (isSpace(c)) {
        i += 1;
        continue;
      }
      if (this.mode === Mode.Done) {
        fail('more than one JSON value in the document');
        break;
      }
      const top = this.frames[this.frames.length - 1];
      if (top === undefined || top.state === 2 || (top.array && top.state === 0 && c !== 0x5d)) {
        // A value starts here.
        if (c === 0x7d || c === 0x5d || c === 0x2c || c === 0x3a) {
          fail(`unexpected ${JSON.stringify(String.fromCharCode(c))} where a value should be`);
          break;
        }
        if (top?.streamed) {
          const path = this.path();
          const list = elementPattern(this.patterns, path)!.text;
          const keep = !this.skipping;
          this.element = { list: list, path, line: this.line, listLine: top.line, restBytes: this.restSize, closers: this.closers(), pieces: keep ? [] : null, size: 0 };
          valueFrom = keep ? i : -1;
          this.beginValue(c);
          i += 1;
          continue;
        }
        const path = this.path();
        const need = containerNeeded(this.patterns, path);
        if ((c === 0x7b && need.object) || (c === 0x5b && need.array)) {
          const array = c === 0x5b;
          const streamed = array && elementPattern(this.patterns, [...path, 0]) !== null;
          this.frames.push({ array, streamed, line: this.line, state: 0, index: 0, key: null });
          i += 1;
          if (streamed) stopCopy(i);
          continue;
        }
        this.beginValue(c);
        i += 1;
        continue;
      }
      if (top.array) {
        if (c === 0x5d && top.state !== 2) {
          if (top.streamed) startCopy(i);
          this.frames.pop();
          this.valueDone();
        } else if (c === 0x2c && top.state === 3) {
          top.state = 2;
          top.index += 1;
        } else {
          fail(`expected "," or "]" in the list that begins on line ${top.line}`);
          break;
        }
        i += 1;
        continue;
      }
      // An object of the structure.
      if (c === 0x22 && (top.state === 0 || top.state === 4)) {
        this.keyPieces = [];
        this.backslashes = 0;
        i += 1;
      } else if (c === 0x3a && top.state === 1) {
        top.state = 2;
        i += 1;
      } else if (c === 0x2c && top.state === 3) {
        top.state = 4;
        i += 1;
      } else if (c === 0x7d && (top.state === 0 || top.state === 3)) {
        this.frames.pop();
        this.valueDone();
        i += 1;
      } else {
        fail(`unexpected ${JSON.stringify(String.fromCharCode(c))} in the object that begins on line ${top.line}`);
        break;
      }
    }
    if (!this.failed()) {
      if (restFrom >= 0 && n > restFrom) this.addRest(chunk.subarray(restFrom, n));
      if (this.element?.pieces && valueFrom >= 0 && n > valueFrom) this.addPiece(this.element, chunk.subarray(valueFrom, n));
    }
    if (this.restSize > this.options.maxRestBytes && !this.failed()) {
      fail(`the document outside its streamed lists is longer than ${this.options.maxRestBytes} bytes`);
    }
    return events;
  }

  /** After the last chunk: an error when the document is not complete. */
  end(): ScanEvent[] {
    const events: ScanEvent[] = [];
    if (this.first && this.lead.length > 0) {
      // A file shorter than a byte order mark: what it holds is read as it is.
      this.first = false;
      const lead = this.lead;
      this.lead = Buffer.alloc(0);
      events.push(...this.push(lead));
    }
    return [...events, ...this.finish()];
  }

  private finish(): ScanEvent[] {
    if (this.mode === Mode.Done || this.mode === Mode.Failed) return [];
    this.mode = Mode.Failed;
    if (this.scalar && this.frames.length === 0) {
      // A document that is one bare number or literal ends with the file.
      this.mode = Mode.Done;
      return [];
    }
    if (this.first || (this.frames.length === 0 && this.depth === 0 && !this.inString && !this.scalar)) {
      return [{ kind: 'error', line: this.line, message: 'the file holds no JSON value' }];
    }
    if (this.element) {
      return [{ kind: 'error', line: this.element.line, message: `the document ends inside ${describePath(this.element.path)}, which begins on this line (the file is cut short)` }];
    }
    return [{ kind: 'error', line: this.line, message: 'the document ends early (the file is cut short)' }];
  }

  /** Set by a failure inside push (a closure the type checker does not follow). */
  private failed(): boolean {
    return this.mode === Mode.Failed;
  }

  /** The path of the value at the current position (each open container's key or index). */
  private path(): PathStep[] {
    return this.frames.map((f) => (f.array ? f.index : f.key!));
  }

  private closers(): string {
    let out = '';
    for (let k = this.frames.length - 1; k >= 0; k -= 1) out += this.frames[k]!.array ? ']' : '}';
    return out;
  }

  private addRest(piece: Buffer): void {
    this.rest.push(Buffer.from(piece));
    this.restSize += piece.length;
  }

  private addPiece(el: NonNullable<JsonStreamScanner['element']>, piece: Buffer): void {
    el.size += piece.length;
    if (el.size > this.options.maxElementBytes) {
      el.pieces = null;
      return;
    }
    el.pieces!.push(Buffer.from(piece));
  }

  private beginValue(c: number): void {
    this.mode = Mode.Value;
    this.depth = c === 0x7b || c === 0x5b ? 1 : 0;
    this.inString = c === 0x22;
    this.scalar = !this.inString && this.depth === 0;
    this.backslashes = 0;
  }

  private valueDone(): void {
    this.mode = this.frames.length === 0 ? Mode.Done : Mode.Struct;
    this.scalar = false;
    const top = this.frames[this.frames.length - 1];
    if (top) top.state = 3;
  }

  /** Reads on in the value; returns the offset just past its end, or -1 when it goes on past the chunk. */
  private scanValue(chunk: Buffer, from: number): number {
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
        const c = chunk[i]!;
        i += 1;
        if (c === 0x22) {
          this.inString = true;
          this.backslashes = 0;
          break;
        }
        if (c === 0x7b || c === 0x5b) this.depth += 1;
        else if (c === 0x7d || c === 0x5d) {
          this.depth -= 1;
          if (this.depth === 0) return i;
        } else if (c === 0x0a) {
          this.line += 1;
          if (!this.copying) this.elided += 1;
        }
      }
    }
  }

  /** The offset of the quote that ends the string being read, or -1 (the backslashes before the chunk's end are carried). */
  private stringEnd(chunk: Buffer, from: number): number {
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
