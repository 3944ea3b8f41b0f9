import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { JsonStreamScanner, type ScanEvent } from '../../src/io/json-stream/scanner.js';
import { compileListPattern } from '../../src/io/json-stream/list-paths.js';
import { indexLines } from '../../src/ingest/read/json-locate.js';
import { corpusFile, corpusFiles, describeCorpus } from '../public-corpus.js';

const BIG = 1 << 30;

function scan(bytes: Buffer, lists: string[], chunk: number, limits: { element?: number; rest?: number } = {}) {
  const scanner = new JsonStreamScanner({ lists, maxElementBytes: limits.element ?? BIG, maxRestBytes: limits.rest ?? BIG });
  const events: ScanEvent[] = [];
  for (let at = 0; at < bytes.length; at += chunk) {
    // A fresh copy per chunk, overwritten afterwards: the scanner must copy what it keeps.
    const piece = Buffer.from(bytes.subarray(at, at + chunk));
    events.push(...scanner.push(piece));
    piece.fill(0x7e);
  }
  events.push(...scanner.end());
  return { events, rest: () => JSON.parse(scanner.restText()) as unknown };
}

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsonFiles(path));
    else if (name.endsWith('.json')) out.push(path);
  }
  return out;
}

/** The lists a format would stream in this document: the top level, or every array member of the top-level object. */
function listsOf(doc: unknown): string[] {
  if (Array.isArray(doc)) return ['$[*]'];
  if (doc === null || typeof doc !== 'object') return [];
  return Object.keys(doc)
    .filter((key) => /^[A-Za-z0-9_$-]+$/.test(key) && Array.isArray((doc as Record<string, unknown>)[key]))
    .map((key) => `$.${key}[*]`);
}

const OWN = jsonFiles('test/fixtures');
const PUBLIC = corpusFiles().filter((file) => file.endsWith('.json')).sort();

describe('JsonStreamScanner on every JSON fixture of the repository', () => {
  it('finds the fixtures (16 .json files)', () => {
    expect(OWN.length).toBe(16);
  });
  for (const file of OWN) it(`${file}: elements, lines and rest are what JSON.parse and indexLines give`, () => scansLikeParse(file));
});

describeCorpus('JsonStreamScanner on every JSON file of the public corpus', PUBLIC, () => {
  it('finds them (38 .json files or more, as the corpus grows)', () => {
    expect(PUBLIC.length).toBeGreaterThanOrEqual(38);
  });
  for (const file of PUBLIC) it(`${file}: elements, lines and rest are what JSON.parse and indexLines give`, () => scansLikeParse(corpusFile(file)));
});

function scansLikeParse(file: string): void {
  const bytes = readFileSync(file);
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    // Not one document (a fixture of a broken file): the scanner must say so too.
    const { events } = scan(bytes, ['$[*]'], 4096);
    const failed = events.some((e) => e.kind === 'error') || events.some((e) => e.kind === 'element' && !parses(e.text));
    expect(failed || !parses(text)).toBe(true);
    return;
  }
  const lists = listsOf(whole);
  const lineOf = indexLines(text, 2);
  const expected: Array<{ path: Array<string | number>; value: unknown; line: number | null }> = [];
  const rest = Array.isArray(whole) ? [] : whole !== null && typeof whole === 'object' ? { ...(whole as object) } : whole;
  for (const list of lists) {
    const steps = compileListPattern(list).steps;
    const key = steps.length === 2 ? (steps[0] as string) : null;
    const items = (key === null ? whole : (whole as Record<string, unknown>)[key]) as unknown[];
    items.forEach((value, i) => {
      const path = key === null ? [i] : [key, i];
      expected.push({ path, value, line: value !== null && typeof value === 'object' ? lineOf(path) : null });
    });
    if (key !== null) (rest as Record<string, unknown>)[key] = [];
  }
  for (const chunk of bytes.length < 150_000 ? [1, 7, 65536] : [13, 65536]) {
    const { events, rest: restOf } = scan(bytes, lists, chunk);
    expect(events.filter((e) => e.kind !== 'element')).toEqual([]);
    const got = events.map((e) => (e.kind === 'element' ? { path: [...e.path], value: JSON.parse(e.text) as unknown, line: e.line } : null));
    // Elements come in file order; JSON.parse's lists are compared in pattern order.
    const sorted = [...got].sort((a, b) => lists.indexOf(`$.${String(a!.path[0])}[*]`) - lists.indexOf(`$.${String(b!.path[0])}[*]`));
    expect(sorted.length).toBe(expected.length);
    sorted.forEach((item, k) => {
      expect(item!.path).toEqual(expected[k]!.path);
      expect(isDeepStrictEqual(item!.value, expected[k]!.value)).toBe(true);
      if (expected[k]!.line !== null) expect(item!.line).toBe(expected[k]!.line);
    });
    expect(isDeepStrictEqual(restOf(), rest)).toBe(true);
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('JsonStreamScanner semantics', () => {
  const elements = (text: string, lists: string[], chunk = 1) =>
    scan(Buffer.from(text), lists, chunk).events.map((e) => (e.kind === 'element' ? { path: e.path, value: JSON.parse(e.text) as unknown, line: e.line, listLine: e.listLine } : e));

  it('keeps what JSON.parse keeps: duplicate keys (last wins), __proto__ as an own key, lone surrogates, big numbers, escapes', () => {
    const items = ['{"a":1,"a":2}', '{"__proto__":{"x":1},"constructor":3}', '"\\ud800"', '12345678901234567890123', '"q\\"\\\\"', '{"k\\u0022":"\\\\\\""}', '-0', '1e400', '"é😀"'];
    const text = `{"id":"s","events":[${items.join(',\n')}]}`;
    for (const chunk of [1, 2, 3, 5, 1000]) {
      const got = scan(Buffer.from(text), ['$.events[*]'], chunk).events;
      expect(got.map((e) => e.kind)).toEqual(items.map(() => 'element'));
      got.forEach((e, i) => {
        const value = JSON.parse((e as { text: string }).text) as unknown;
        expect(isDeepStrictEqual(value, JSON.parse(items[i]!))).toBe(true);
        expect(Object.is(value, JSON.parse(items[i]!)) || typeof value === 'object').toBe(true);
      });
    }
    const proto = JSON.parse((scan(Buffer.from(text), ['$.events[*]'], 4).events[1] as { text: string }).text) as object;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__', 'constructor']);
  });

  it('gives each element its line and its list line, with a BOM and CRLF lines', () => {
    const text = '\ufeff{\r\n "id": "s",\r\n "steps": [\r\n  {"a": [1,\r\n 2]},\r\n  "x",\r\n  [\r\n  ]\r\n ]\r\n}\r\n';
    expect(elements(text, ['$.steps[*]'])).toEqual([
      { path: ['steps', 0], value: { a: [1, 2] }, line: 4, listLine: 3 },
      { path: ['steps', 1], value: 'x', line: 6, listLine: 3 },
      { path: ['steps', 2], value: [], line: 7, listLine: 3 },
    ]);
  });

  it('reads nested lists ($[*].observations[*], $.trace.observations[*]) and keeps the rest with them []', () => {
    const text = '[{"trace":{"id":"t1"},"observations":[{"id":1},{"id":2}]},\n{"trace":{"id":"t2","observations":[{"id":3}]},"observations":[]}]';
    const result = scan(Buffer.from(text), ['$[*].observations[*]', '$[*].trace.observations[*]'], 3);
    expect(result.events.map((e) => (e.kind === 'element' ? [e.list, e.path, e.line] : e))).toEqual([
      ['$[*].observations[*]', [0, 'observations', 0], 1],
      ['$[*].observations[*]', [0, 'observations', 1], 1],
      ['$[*].trace.observations[*]', [1, 'trace', 'observations', 0], 2],
    ]);
    expect(result.rest()).toEqual([{ trace: { id: 't1' }, observations: [] }, { trace: { id: 't2', observations: [] }, observations: [] }]);
  });

  it('reads a value that is not the list the pattern names as part of the rest', () => {
    const result = scan(Buffer.from('{"events":{"not":"a list"},"id":7}'), ['$.events[*]'], 2);
    expect(result.events).toEqual([]);
    expect(result.rest()).toEqual({ events: { not: 'a list' }, id: 7 });
    expect(scan(Buffer.from('[1,2]'), ['$.events[*]'], 1).rest()).toEqual([1, 2]);
    expect(scan(Buffer.from(' 42 '), ['$[*]'], 1).rest()).toBe(42);
  });

  it('gives the document before an element (restBytes and closers) for run ids read before the list', () => {
    const text = '{"sessionId":"abc","n":[1,{"x":"]"}],"messages":[{"m":1}],"late":true}';
    const scanner = new JsonStreamScanner({ lists: ['$.messages[*]'], maxElementBytes: BIG, maxRestBytes: BIG });
    const [element] = scanner.push(Buffer.from(text));
    expect(element).toMatchObject({ kind: 'element', closers: ']}' });
    const e = element as { restBytes: number; closers: string };
    expect(JSON.parse(scanner.restText(e.restBytes) + e.closers)).toEqual({ sessionId: 'abc', n: [1, { x: ']' }], messages: [] });
    expect(scanner.end()).toEqual([]);
    expect(JSON.parse(scanner.restText())).toEqual({ sessionId: 'abc', n: [1, { x: ']' }], messages: [], late: true });
  });

  it('a document cut short: one error at the line where the unfinished element begins', () => {
    const text = '{"events": [\n{"a": 1},\n{"b": "unfinished';
    expect(elements(text, ['$.events[*]'])).toEqual([
      { path: ['events', 0], value: { a: 1 }, line: 2, listLine: 1 },
      { kind: 'error', line: 3, message: 'the document ends inside events[1], which begins on this line (the file is cut short)' },
    ]);
    expect(elements('{"events": [\n{"a": 1}\n', ['$.events[*]']).at(-1)).toEqual({ kind: 'error', line: 3, message: 'the document ends early (the file is cut short)' });
    expect(elements('', ['$[*]'])).toEqual([{ kind: 'error', line: 1, message: 'the file holds no JSON value' }]);
    expect(elements(' \n ', ['$[*]'])).toEqual([{ kind: 'error', line: 2, message: 'the file holds no JSON value' }]);
  });

  it('separators JSON.parse rejects are errors at their line: a trailing comma, a missing comma, a second value', () => {
    expect(elements('[1,\n2,\n]', ['$[*]']).at(-1)).toEqual({ kind: 'error', line: 3, message: 'unexpected "]" where a value should be' });
    expect(elements('[{"a":1}\n{"b":2}]', ['$[*]']).at(-1)).toEqual({ kind: 'error', line: 2, message: 'expected "," or "]" in the list that begins on line 1' });
    expect(elements('[1]\n[2]', ['$[*]']).at(-1)).toEqual({ kind: 'error', line: 2, message: 'more than one JSON value in the document' });
    expect(elements('{"a" 1}', ['$.a[*]']).at(-1)).toEqual({ kind: 'error', line: 1, message: 'unexpected "1" in the object that begins on line 1' });
  });

  it('an element past the cap is one oversized event at its line; the next elements are read', () => {
    const big = `"${'x'.repeat(5000)}"`;
    const text = `{"events":[1,\n${big},\n{"ok":true}]}`;
    for (const chunk of [1, 100, 100_000]) {
      const events = scan(Buffer.from(text), ['$.events[*]'], chunk, { element: 1000 }).events;
      expect(events.map((e) => [e.kind, e.line])).toEqual([
        ['element', 1],
        ['oversized', 2],
        ['element', 3],
      ]);
    }
  });

  it('a rest past its cap stops the scan with one error', () => {
    const text = `{"blob":"${'y'.repeat(5000)}","events":[1]}`;
    const events = scan(Buffer.from(text), ['$.events[*]'], 1024, { rest: 1000 }).events;
    expect(events).toEqual([{ kind: 'error', line: 1, message: 'the document outside its streamed lists is longer than 1000 bytes' }]);
  });

  it('backslash runs split across chunks end strings where JSON says', () => {
    for (const run of [1, 2, 3, 4, 7, 8]) {
      const inner = '\\'.repeat(run - (run % 2)) + (run % 2 === 1 ? '\\"' : '');
      const text = `["${inner}", {"k":"${inner}]"}]`;
      const want = JSON.parse(text) as unknown[];
      for (const chunk of [1, 2, 3, 4]) {
        const events = scan(Buffer.from(text), ['$[*]'], chunk).events;
        expect(events.map((e) => (e.kind === 'element' ? (JSON.parse(e.text) as unknown) : e))).toEqual(want);
      }
    }
  });
});
