import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jcsTextFast } from '../../src/canonical/jcs-view.js';
import { canonicalText } from '../../src/canonical/text.js';
import { InputError } from '../../src/errors.js';
import { canonicalRecord, RESERVED_FIELDS, sealError, type SealMode } from '../../src/seal/canonical-record.js';
import { corpusFile, corpusFiles, itCorpus } from '../public-corpus.js';

/** canonicalRecord without the fast path: what the lossless path alone gives, or its error. */
function canonicalRecordLossless(text: string, file: string, line: number, mode: SealMode, maxDepth: number): string {
  try {
    return canonicalText(text, mode, { maxDepth, record: { reserved: RESERVED_FIELDS } }, false);
  } catch (error) {
    throw sealError(error, text, file, line, mode);
  }
}

// The fast JCS path must give exactly the bytes of the lossless path, or step aside
// (undefined) so that the lossless path gives its result or its error.

type Outcome = { text: string } | { code: string; message: string };

function outcome(canon: typeof canonicalRecord, text: string, maxDepth: number): Outcome {
  try {
    return { text: canon(text, 'trace.jsonl', 3, 'jcs', maxDepth) };
  } catch (error) {
    if (error instanceof InputError) return { code: error.code, message: error.message };
    // Not a refusal but a crash (a stack overflow on very deep input): the same one is the same outcome.
    if (error instanceof Error) return { code: error.name, message: error.message };
    throw error;
  }
}

/** Checks one text; returns whether the fast path answered it. */
function agree(text: string, maxDepth = 256): boolean {
  const lossless = outcome(canonicalRecordLossless, text, maxDepth);
  const fast = jcsTextFast(text, maxDepth, RESERVED_FIELDS);
  if (fast !== undefined) expect(lossless, text).toEqual({ text: fast });
  expect(outcome(canonicalRecord, text, maxDepth), text).toEqual(lossless);
  return fast !== undefined;
}

const PUBLIC = corpusFiles().sort();

describe('JCS fast path against the lossless path', () => {
  itCorpus('agrees on every line of every JSON Lines file of the corpus', PUBLIC, () => {
    const files = PUBLIC.filter((f) => /\.(jsonl|ndjson)$/.test(f)).map(corpusFile);
    expect(files.length).toBeGreaterThan(0);
    let lines = 0;
    let fast = 0;
    for (const file of files) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const text = line.endsWith('\r') ? line.slice(0, -1) : line;
        if (text.trim() === '') continue;
        lines += 1;
        if (agree(text)) fast += 1;
      }
    }
    // Most real records take the fast path; the test is not vacuous.
    expect(fast).toBeGreaterThan(lines / 2);
  });

  itCorpus('agrees on the JSON documents of the corpus, whole, compacted and line by line', PUBLIC, () => {
    for (const file of PUBLIC.filter((f) => f.endsWith('.json')).map(corpusFile)) {
      const text = readFileSync(file, 'utf8');
      agree(text);
      agree(JSON.stringify(JSON.parse(text)));
      for (const line of text.split('\n')) agree(line);
    }
  });

  it('agrees on the Python vectors: each vector line, its input, and its input as a member', () => {
    const lines = readFileSync('test/fixtures/canonical/python-vectors.jsonl', 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(1000);
    for (const line of lines) {
      const { input } = JSON.parse(line) as { input: string };
      agree(line);
      agree(input);
      agree(`{"v":${input}}`);
      agree(`{"v": [${input}, {"w":${input}}]}`, 2);
    }
  });

  it.each([
    ['big integers', '{"n":9007199254740993}', false],
    ['2^53 itself', '{"n":-9007199254740992}', false],
    ['the largest safe integer', '{"n":9007199254740991}', true],
    ['an integral float past 2^53 (accepted, but left to the lossless path)', '{"n":9007199254740993.0}', false],
    ['overflow', '{"n":1e400}', false],
    ['underflow', '{"n":[1e-400,-0,-0.0,1.0,1E2]}', true],
    ['a lone surrogate in a value', '{"s":"\\ud800"}', false],
    ['a lone surrogate in a key', '{"\\udc00":1}', false],
    ['a surrogate pair', '{"s":"\\ud83d\\ude00"}', true],
    ['a backslash before "ud" (a false alarm, left to the lossless path)', '{"s":"\\\\ud"}', false],
    ['a duplicate key', '{"a":1,"a":2}', false],
    ['a duplicate key with spaces', '{"a" : 1, "a" : 2}', false],
    ['a duplicate key deep down', '{"a":[{"b":{"c":1,"c":1}}]}', false],
    ['"": inside values', '{"a":"\\":","b":"x\\":\\":"}', true],
    ['array-index keys', '{"10":1,"9":2}', false],
    ['__proto__', '{"__proto__":{"x":1}}', false],
    ['keys special to objects', '{"constructor":1,"toString":[],"toJSON":"x","hasOwnProperty":null}', true],
    ['a reserved field', '{"prev":"x"}', false],
    ['a reserved field below the top', '{"a":{"prev":1,"digest":2}}', true],
    ['an array record', '[1]', false],
    ['a string record', '"x"', false],
    ['null', 'null', false],
    ['not JSON', '{"a":1,}', false],
    ['trailing text', '{} {}', false],
    ['a BOM', '\ufeff{}', false],
    ['white space around', ' \t{ "b" : 1 , "a" : 2 }\r ', true],
    ['an empty record', '{}', true],
    ['keys in code-unit order, not code-point order', '{"\\uffff":0,"\\ud83d\\ude00":0,"a":0,"B":0,"":0}', true],
  ])('%s', (_name, text, fast) => {
    expect(agree(text)).toBe(fast);
  });

  it('keeps code-unit order in objects large enough for V8 to store as dictionaries', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `k${(i * 7919) % 5000}${String.fromCharCode(0x61 + (i % 26))}`);
    const record = `{${keys.map((k, i) => `"${k}":${i % 3 === 0 ? `{"z":${i},"a":[${i}]}` : i}`).join(',')}}`;
    expect(agree(record)).toBe(true);
    expect(agree(`{"list":[${keys.map((k) => `"${k}"`).join(',')}]}`)).toBe(true);
  });

  it('leaves a record nested past maxDepth to the lossless path, counting as it does', () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    // `{"a":1}` holds a value at depth 1.
    expect(agree(nested(1), 1)).toBe(true);
    expect(agree(nested(1), 0)).toBe(false);
    expect(agree('{}', 0)).toBe(true);
    expect(agree('{"a":[]}', 1)).toBe(true);
    expect(agree('{"a":[[]]}', 1)).toBe(false);
    expect(agree(nested(256), 256)).toBe(true);
    expect(agree(nested(257), 256)).toBe(false);
    expect(agree(`{"a":${'['.repeat(300)}${']'.repeat(300)}}`, 256)).toBe(false);
    // Deeper than the stack goes: both paths still agree.
    agree(nested(20000), 50000);
  });
});

// Arbitrary JSON text, written to hit the edges: number lexemes past 2^53, overflow,
// -0 and 1.0, lone surrogates raw and escaped, keys that repeat or are special, white
// space around every token, deep nesting, and some texts that are not JSON at all.
const ws = fc.constantFrom('', '', '', '', ' ', '\t', '\r\n', '  \n');
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => String(d)),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.tuple(fc.constantFrom('', '-'), fc.constantFrom('0', '1', '9', '12'), digits(0, 20), fc.option(digits(1, 20)), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 4)))).map(
    ([sign, lead, more, frac, exp]) => `${sign}${lead === '0' ? '0' : lead + more}${frac === null ? '' : `.${frac}`}${exp === null ? '' : exp.join('')}`,
  ),
  fc.constantFrom('-0', '0', '-0.0', '1.0', '1e400', '-1e400', '1e-400', '1E+2', '9007199254740991', '9007199254740992', '9007199254740993', '-9007199254740993', '9007199254740993.0', '1e20', '1e21', '123456789012345678901234567890', '5e-324', '1.7976931348623157e308', '1.7976931348623159e308', '0.1', '1e16'),
);
const stringPiece = fc.oneof(
  fc.constantFrom('a', 'b', 'A', 'é', '世', '😀', ' ', ':', '":', '\\"', '\\\\', '\\/', '\\n', '\\t', '\\u0000', '\\u001f', '\\u0041', '\\u00e9', '\\u2028', '\\ud800', '\\udbff', '\\udc00', '\\udfff', '\\ud83d\\ude00', '\\\\ud800', '\ud800', '\udc00', '\\uD800', '\\uDC00x'),
  fc.string({ unit: 'binary', maxLength: 6 }).map((s) => JSON.stringify(s).slice(1, -1)),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 3 }).map((s) => JSON.stringify(s).slice(1, -1)),
);
const stringText = fc.array(stringPiece, { maxLength: 4 }).map((parts) => `"${parts.join('')}"`);
const keyText = fc.oneof(
  fc.constantFrom('"a"', '"b"', '"A"', '"é"', '""', '"prev"', '"digest"', '"__proto__"', '"constructor"', '"toJSON"', '"1"', '"10"', '"9"', '"-1"', '"\\u0061"', '"\\ud800"', '"\\ud83d\\ude00"', '"\\uffff"'),
  stringText,
);
const scalarText = fc.oneof(numberText, stringText, fc.constantFrom('true', 'false', 'null'));
const { value: valueText, object: objectText } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalarText, tie('array'), tie('object')),
  array: fc.array(fc.tuple(ws, tie('value'), ws), { maxLength: 4 }).chain((items) => ws.map((w) => `[${items.length === 0 ? w : items.map((i) => i.join('')).join(',')}]`)),
  object: fc
    .array(fc.tuple(ws, keyText, ws, ws, tie('value'), ws), { maxLength: 5 })
    .chain((members) => ws.map((w) => `{${members.length === 0 ? w : members.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`)),
}));
const deepText = fc
  .tuple(fc.integer({ min: 0, max: 12 }), fc.constantFrom('{"a":', '[', '{"a":[', '[{"b":'), valueText)
  .map(([depth, open, inner]) => {
    const close = [...open].filter((c) => c === '[' || c === '{').reverse().map((c) => (c === '[' ? ']' : '}')).join('');
    return `{"d":${open.repeat(depth)}${inner}${close.repeat(depth)}}`;
  });
const recordText = fc.oneof(
  { weight: 6, arbitrary: objectText.map((t) => t) },
  { weight: 2, arbitrary: fc.tuple(ws, objectText, ws).map((p) => p.join('')) },
  { weight: 2, arbitrary: deepText },
  { weight: 1, arbitrary: valueText },
  { weight: 1, arbitrary: fc.tuple(objectText, fc.nat()).map(([t, cut]) => t.slice(0, cut % (t.length + 1))) },
  { weight: 1, arbitrary: fc.tuple(objectText, fc.constantFrom(',', '}', ' x', '{}', '\u00a0')).map((p) => p.join('')) },
);

describe('JCS fast path against the lossless path (fast-check, fixed seed)', () => {
  it('gives the same bytes or leaves the text to the lossless path, on arbitrary JSON text', () => {
    let fast = 0;
    let runs = 0;
    fc.assert(
      fc.property(recordText, fc.constantFrom(256, 256, 4, 1, 0), (text, maxDepth) => {
        runs += 1;
        if (agree(text, maxDepth)) fast += 1;
      }),
      { seed: 8785_2026, numRuns: 4000 },
    );
    expect(fast).toBeGreaterThan(runs / 10);
  });
});
