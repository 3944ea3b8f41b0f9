import { compileListPattern, containerNeeded, describePath, elementPattern, type ListPattern, type PathStep } from './list-paths.js';
import { RestCopy } from './rest-copy.js';
import type { ScanEvent, ScannerOptions } from './scan-events.js';
import { StructReader, type Frame, type Pass } from './struct-reader.js';
import { isSpace, Mode } from './value-lexer.js';

export type { OversizedElement, ScanError, ScanEvent, ScannedElement, ScannerOptions } from './scan-events.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

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
export class JsonStreamScanner extends StructReader {
  private readonly patterns: ListPattern[];
  private readonly hollow: ListPattern[];
  private first = true;
  private lead = Buffer.alloc(0);
  private readonly rest = new RestCopy();
  private element: { list: string; path: PathStep[]; line: number; listLine: number; restBytes: number; closers: string; pieces: Buffer[] | null; size: number } | null = null;

  private skipping = false;

  constructor(private readonly options: ScannerOptions) {
    super();
    this.patterns = options.lists.map(compileListPattern);
    this.hollow = (options.hollow ?? []).map(compileListPattern);
  }

  /** From the next element on, pass elements over without keeping them (a read for the rest only). */
  skipElements(): void {
    this.skipping = true;
  }

  /** The rest of the document read so far (lists written `[]`), its first `bytes` bytes. */
  restText(bytes = this.rest.size): string {
    return this.rest.text(bytes);
  }

  /** Where lines were taken out of the rest's first `bytes` bytes (see RestCopy.jumps): jumps for `indexLines`. */
  restJumps(bytes = this.rest.size): Array<{ at: number; lines: number }> {
    return this.rest.jumps(bytes);
  }

  /** The line in the file of a character offset in the complete rest text (for a parse error found there). */
  restLine(text: string, offset: number): number {
    return this.rest.line(text, offset);
  }

  push(chunk: Buffer): ScanEvent[] {
    const events: ScanEvent[] = [];
    if (this.mode === Mode.Failed) return events;
    const p = this.begin(chunk, events);
    if (p === null) return events;
    const n = p.chunk.length;
    let i = p.from;
    while (i < n && !this.failed()) {
      if (this.mode === Mode.Value) i = this.readValue(p, i);
      else if (this.keyPieces) i = this.readKey(p, i);
      else i = this.readStruct(p, i);
    }
    if (!this.failed()) {
      if (p.restFrom >= 0 && n > p.restFrom) this.rest.add(p.chunk.subarray(p.restFrom, n));
      if (this.element?.pieces && p.valueFrom >= 0 && n > p.valueFrom) this.addPiece(this.element, p.chunk.subarray(p.valueFrom, n));
    }
    if (this.rest.size > this.options.maxRestBytes && !this.failed()) {
      this.fail(p, `the document outside its streamed lists is longer than ${this.options.maxRestBytes} bytes`);
    }
    return events;
  }

  /** The chunk to read and where (past a byte order mark, which may come split over chunks); null while a split one is still gathered. */
  private begin(chunk: Buffer, events: ScanEvent[]): Pass | null {
    let from = 0;
    if (this.first) {
      const lead = this.lead.length === 0 ? chunk : Buffer.concat([this.lead, chunk]);
      const prefix = Math.min(3, lead.length);
      if (lead.subarray(0, prefix).equals(BOM.subarray(0, prefix)) && prefix < 3) {
        this.lead = Buffer.from(lead);
        return null;
      }
      this.first = false;
      this.lead = Buffer.alloc(0);
      chunk = lead;
      if (prefix === 3 && lead.subarray(0, 3).equals(BOM)) from = 3;
    }
    return { chunk, events, from, restFrom: this.copying ? from : -1, valueFrom: this.element?.pieces ? from : -1 };
  }

  /** Reads on in a value read whole; at its end, an element is handed out. Returns where reading goes on. */
  private readValue(p: Pass, i: number): number {
    const end = this.scanValue(p.chunk, i);
    if (end < 0) return p.chunk.length;
    const el = this.element;
    if (el) {
      const text = el.pieces ? this.elementText(el, p, end) : null;
      p.valueFrom = -1;
      this.element = null;
      const { list, path, line, listLine, restBytes, closers } = el;
      if (text !== null) p.events.push({ kind: 'element', list, path, line, listLine, restBytes, closers, text });
      else if (el.size > this.options.maxElementBytes) p.events.push({ kind: 'oversized', list, path, line, listLine, restBytes, closers });
    }
    this.valueDone();
    return end;
  }

  /**
   * A kept element's text once its end is read (null past the cap). One that lies in
   * this chunk is decoded from it (the same bytes, so the same string, and no copy);
   * one begun in an earlier chunk is the pieces copied so far and the last.
   */
  private elementText(el: NonNullable<JsonStreamScanner['element']>, p: Pass, end: number): string | null {
    if (el.pieces!.length === 0) {
      el.size = end - p.valueFrom;
      return el.size > this.options.maxElementBytes ? null : p.chunk.toString('utf8', p.valueFrom, end);
    }
    this.addPiece(el, p.chunk.subarray(p.valueFrom, end));
    return el.pieces ? Buffer.concat(el.pieces, el.size).toString('utf8') : null;
  }

  /** One byte of the structure along the patterns (outside any value read whole). */
  private readStruct(p: Pass, i: number): number {
    const c = p.chunk[i]!;
    if (c === 0x0a) {
      this.line += 1;
      if (!this.copying) this.elided += 1;
    }
    if (isSpace(c)) return i + 1;
    if (this.mode === Mode.Done) {
      this.fail(p, 'more than one JSON value in the document');
      return i;
    }
    const top = this.frames[this.frames.length - 1];
    if (top === undefined || top.state === 2 || (top.array && top.state === 0 && c !== 0x5d)) return this.startValue(p, i, c, top);
    if (top.array) return this.arrayByte(p, i, c, top);
    return this.objectByte(p, i, c, top);
  }

  /** A value starts: an element of a streamed list, a container the patterns go into, or a value read whole. */
  private startValue(p: Pass, i: number, c: number, top: Frame | undefined): number {
    if (c === 0x7d || c === 0x5d || c === 0x2c || c === 0x3a) {
      this.fail(p, `unexpected ${JSON.stringify(String.fromCharCode(c))} where a value should be`);
      return i;
    }
    const path = this.path();
    if (top?.streamed) {
      const list = elementPattern(this.patterns, path)!.text;
      const keep = !this.skipping;
      this.element = { list: list, path, line: this.line, listLine: top.line, restBytes: this.rest.size, closers: this.closers(), pieces: keep ? [] : null, size: 0 };
      p.valueFrom = keep ? i : -1;
      this.beginValue(c);
      return i + 1;
    }
    const need = containerNeeded(this.patterns, path);
    if ((c === 0x7b && need.object) || (c === 0x5b && need.array)) {
      const array = c === 0x5b;
      const streamed = array && elementPattern(this.patterns, [...path, 0]) !== null;
      const hollow = array && !streamed && this.copying && !this.frames.some((f) => f.hollow) && elementPattern(this.hollow, [...path, 0]) !== null;
      this.frames.push({ array, streamed, hollow, itemStart: 0, line: this.line, state: 0, index: 0, key: null });
      if (streamed) this.stopCopy(p, i + 1);
      if (hollow) this.frames[this.frames.length - 1]!.itemStart = this.flushRest(p, i + 1);
      return i + 1;
    }
    this.beginValue(c);
    return i + 1;
  }

  /** A streamed list opens: its items stay out of the rest. */
  private stopCopy(p: Pass, at: number): void {
    if (p.restFrom >= 0 && at > p.restFrom) this.rest.add(p.chunk.subarray(p.restFrom, at));
    p.restFrom = -1;
    this.copying = false;
  }

  /** Copies the chunk's rest up to `at`; returns the rest's size. */
  private flushRest(p: Pass, at: number): number {
    if (p.restFrom >= 0 && at > p.restFrom) this.rest.add(p.chunk.subarray(p.restFrom, at));
    p.restFrom = at;
    return this.rest.size;
  }

  /** A hollow list's item ends: out of the rest it goes (with the comma after it), its lines counted as taken out. */
  protected override itemEnds(p: Pass, at: number, top: Frame, comma: boolean): void {
    this.flushRest(p, at);
    const lines = this.rest.dropIfJson(top.itemStart);
    if (lines >= 0) {
      this.elided += lines;
      this.rest.checkpoint(this.elided);
      if (comma) p.restFrom = at + 1;
    }
    top.itemStart = this.rest.size + (comma && lines < 0 ? 1 : 0);
  }

  /** A streamed list closes: the rest is copied again from its "]". */
  protected override listCloses(p: Pass, at: number): void {
    p.restFrom = at;
    this.copying = true;
    this.rest.checkpoint(this.elided);
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

  private addPiece(el: NonNullable<JsonStreamScanner['element']>, piece: Buffer): void {
    el.size += piece.length;
    if (el.size > this.options.maxElementBytes) {
      el.pieces = null;
      return;
    }
    el.pieces!.push(Buffer.from(piece));
  }
}
