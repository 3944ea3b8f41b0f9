import type { LosslessNumber, LosslessObject, LosslessValue } from '../model/lossless-value.js';

/**
 * A JSON parser that keeps what JSON.parse throws away and hashing needs:
 * each number's exact text (so `1.0` and `1` stay apart, as Python sees them,
 * and integers past 2^53 are caught), object members in file order, and
 * duplicate keys as an error rather than last-wins.
 */
export type { LosslessNumber, LosslessObject, LosslessValue };

export class LosslessParseError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
    this.name = 'LosslessParseError';
  }
}

export function isLosslessNumber(value: LosslessValue): value is LosslessNumber {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && value.kind === 'number';
}

export function isLosslessObject(value: LosslessValue): value is LosslessObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && value.kind === 'object';
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WS = /[ \t\n\r]*/y;

export function parseLossless(text: string, maxDepth = 512): LosslessValue {
  const parser = new Parser(text, maxDepth);
  const result = parser.value(0);
  parser.skip();
  if (parser.pos !== text.length) parser.fail('more than one JSON value');
  return result;
}

/** The parser's state: the text and the position in it. */
class Parser {
  pos = 0;

  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {}

  skip(): void {
    WS.lastIndex = this.pos;
    WS.exec(this.text);
    this.pos = WS.lastIndex;
  }

  fail(message: string): never {
    throw new LosslessParseError(message, this.pos);
  }

  value(depth: number): LosslessValue {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`);
    this.skip();
    const { text } = this;
    const c = text[this.pos];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (text.startsWith('true', this.pos)) return (this.pos += 4), true;
    if (text.startsWith('false', this.pos)) return (this.pos += 5), false;
    if (text.startsWith('null', this.pos)) return (this.pos += 4), null;
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(text);
    if (m) {
      this.pos = NUMBER_RE.lastIndex;
      return { kind: 'number', text: m[0] };
    }
    return this.fail(c === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`);
  }

  private object(depth: number): LosslessObject {
    const { text } = this;
    this.pos += 1;
    const entries: Array<[string, LosslessValue]> = [];
    const seen = new Set<string>();
    this.skip();
    if (text[this.pos] === '}') {
      this.pos += 1;
      return { kind: 'object', entries };
    }
    for (;;) {
      this.skip();
      if (text[this.pos] !== '"') this.fail('expected a string key');
      const key = this.string();
      if (seen.has(key)) this.fail(`duplicate key ${JSON.stringify(key)}`);
      seen.add(key);
      this.skip();
      if (text[this.pos] !== ':') this.fail('expected ":"');
      this.pos += 1;
      entries.push([key, this.value(depth + 1)]);
      this.skip();
      if (text[this.pos] === ',') this.pos += 1;
      else if (text[this.pos] === '}') {
        this.pos += 1;
        return { kind: 'object', entries };
      } else this.fail('expected "," or "}"');
    }
  }

  private array(depth: number): LosslessValue[] {
    const { text } = this;
    this.pos += 1;
    const items: LosslessValue[] = [];
    this.skip();
    if (text[this.pos] === ']') {
      this.pos += 1;
      return items;
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.skip();
      if (text[this.pos] === ',') this.pos += 1;
      else if (text[this.pos] === ']') {
        this.pos += 1;
        return items;
      } else this.fail('expected "," or "]"');
    }
  }

  private string(): string {
    const { text } = this;
    const start = this.pos;
    this.pos += 1;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (Number.isNaN(c)) this.fail('unterminated string');
      if (c === 0x22) break;
      if (c === 0x5c) this.pos += 2;
      else if (c < 0x20) this.fail('control character in a string');
      else this.pos += 1;
    }
    this.pos += 1;
    try {
      return JSON.parse(text.slice(start, this.pos)) as string;
    } catch {
      return this.fail('invalid string escape');
    }
  }
}

/** The plain JavaScript value (what JSON.parse would give), for code that does not need the lexemes. */
export function toPlain(value: LosslessValue): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value.kind === 'number') return Number(value.text);
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of value.entries) out[key] = toPlain(item);
  return out;
}
