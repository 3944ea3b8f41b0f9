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
  let pos = 0;
  const skip = () => {
    WS.lastIndex = pos;
    WS.exec(text);
    pos = WS.lastIndex;
  };
  const fail = (message: string): never => {
    throw new LosslessParseError(message, pos);
  };
  const value = (depth: number): LosslessValue => {
    if (depth > maxDepth) fail(`nesting deeper than ${maxDepth}`);
    skip();
    const c = text[pos];
    if (c === '{') {
      pos += 1;
      const entries: Array<[string, LosslessValue]> = [];
      const seen = new Set<string>();
      skip();
      if (text[pos] === '}') {
        pos += 1;
        return { kind: 'object', entries };
      }
      for (;;) {
        skip();
        if (text[pos] !== '"') fail('expected a string key');
        const key = string();
        if (seen.has(key)) fail(`duplicate key ${JSON.stringify(key)}`);
        seen.add(key);
        skip();
        if (text[pos] !== ':') fail('expected ":"');
        pos += 1;
        entries.push([key, value(depth + 1)]);
        skip();
        if (text[pos] === ',') pos += 1;
        else if (text[pos] === '}') {
          pos += 1;
          return { kind: 'object', entries };
        } else fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      pos += 1;
      const items: LosslessValue[] = [];
      skip();
      if (text[pos] === ']') {
        pos += 1;
        return items;
      }
      for (;;) {
        items.push(value(depth + 1));
        skip();
        if (text[pos] === ',') pos += 1;
        else if (text[pos] === ']') {
          pos += 1;
          return items;
        } else fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', pos)) return (pos += 4), true;
    if (text.startsWith('false', pos)) return (pos += 5), false;
    if (text.startsWith('null', pos)) return (pos += 4), null;
    NUMBER_RE.lastIndex = pos;
    const m = NUMBER_RE.exec(text);
    if (m) {
      pos = NUMBER_RE.lastIndex;
      return { kind: 'number', text: m[0] };
    }
    return fail(c === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`);
  };
  const string = (): string => {
    const start = pos;
    pos += 1;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (Number.isNaN(c)) fail('unterminated string');
      if (c === 0x22) break;
      if (c === 0x5c) pos += 2;
      else if (c < 0x20) fail('control character in a string');
      else pos += 1;
    }
    pos += 1;
    try {
      return JSON.parse(text.slice(start, pos)) as string;
    } catch {
      return fail('invalid string escape');
    }
  };
  const result = value(0);
  skip();
  if (pos !== text.length) fail('more than one JSON value');
  return result;
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
