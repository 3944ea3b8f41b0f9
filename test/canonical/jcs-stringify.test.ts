import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalError, canonicalize, lossless, parseLossless } from '../../src/canonical/index.js';
import { jcsPieceByPiece } from '../../src/canonical/jcs.js';
import { stringifyView as jcsByStringify } from '../../src/canonical/jcs-view.js';
import { corpusFile, corpusFiles, itCorpus } from '../public-corpus.js';

// The public encoder (with its fast path) against the piece-by-piece one.
const jcs = (value: unknown) => canonicalize(value, 'jcs');
const jcsByParts = (value: unknown) => jcsPieceByPiece(value, false);

/** Every JSON-lines file of the public corpus. */
const JSON_LINES = corpusFiles().filter((file) => /\.(jsonl|ndjson)$/.test(file)).sort();

/** What jcs gives, or the message it refuses with. */
function outcome(run: () => string): string {
  try {
    return `ok ${run()}`;
  } catch (error) {
    return `refused ${error instanceof CanonicalError ? error.message : String(error)}`;
  }
}

// Keys that make the stringify path step aside or that sort differently by code unit and code point.
const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('0', '1', '10', '9', '01', '__proto__', 'a', 'B', 'é', '\u{1F600}', '\uff61', '\ud800', 'toJSON', ''),
);
const leaf = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('\ud800', 'a\udc00', '\\ud800', '\u2028'),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 5 })),
})).value;

describe('jcs by one JSON.stringify', () => {
  it('gives what the piece-by-piece encoder gives, and refuses what it refuses', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(outcome(() => jcs(v))).toBe(outcome(() => jcsByParts(v)));
      }),
      { numRuns: 3000 },
    );
  });

  itCorpus('gives what the piece-by-piece encoder gives on every record of the corpus, plain and lossless', JSON_LINES, () => {
    const files = JSON_LINES.map(corpusFile);
    let records = 0;
    for (const file of files) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        let plain: unknown;
        try {
          plain = JSON.parse(line);
        } catch {
          continue;
        }
        records += 1;
        expect(outcome(() => jcs(plain)), line).toBe(outcome(() => jcsByParts(plain)));
        // A record the lossless encoder accepts (no duplicate keys, no integer past 2^53) has the plain encoder's form.
        const text = outcome(() => canonicalize(lossless(parseLossless(line))));
        if (text.startsWith('ok ')) expect(text, line).toBe(outcome(() => jcs(plain)));
      }
    }
    expect(records).toBeGreaterThan(100);
  });

  it('writes parsed JSON with unsorted and nested keys without the piece-by-piece path', () => {
    const parsed = JSON.parse('{"path":"src/a.py","limit":48,"opts":{"z":[1,{"b":2,"a":1}],"a":"x"},"ok":true,"n":null}');
    expect(jcsByStringify(parsed)).toBe('{"limit":48,"n":null,"ok":true,"opts":{"a":"x","z":[1,{"a":1,"b":2}]},"path":"src/a.py"}');
    expect(jcs(parsed)).toBe(jcsByParts(parsed));
  });

  it('leaves the original untouched and reuses it when it is already in order', () => {
    const sorted = { a: 1, b: [{ c: 'd' }] };
    const unsorted = { b: 1, a: { d: 2, c: 3 } };
    expect(jcsByStringify(sorted)).toBe(JSON.stringify(sorted));
    expect(jcsByStringify(unsorted)).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(jcsByStringify({ a: { d: 2, c: 3 }, b: [{ f: 1, e: 2 }] })).toBe('{"a":{"c":3,"d":2},"b":[{"e":2,"f":1}]}');
    expect(Object.keys(unsorted)).toEqual(['b', 'a']);
    expect(Object.keys(unsorted.a)).toEqual(['d', 'c']);
  });

  it('steps aside for what it cannot write the same way', () => {
    expect(jcsByStringify({ 10: 'a', 9: 'b' })).toBeUndefined();
    expect(jcsByStringify(JSON.parse('{"__proto__":1}'))).toBeUndefined();
    expect(jcsByStringify({ a: '\ud800' })).toBeUndefined();
    expect(jcsByStringify({ a: '\\ud800' })).toBeUndefined(); // only slower: the encoder writes it
    expect(jcs({ a: '\\ud800' })).toBe('{"a":"\\\\ud800"}');
    expect(jcsByStringify([1, , 3])).toBeUndefined();
    expect(jcsByStringify({ a: new Date(0) })).toBeUndefined();
    expect(jcsByStringify(Object.assign(Object.create(null), { a: 1 }))).toBeUndefined();
    expect(jcsByStringify({ a: Number.NaN })).toBeUndefined();
    expect(jcsByStringify({ a: undefined })).toBeUndefined();
    let deep: unknown = 1;
    for (let i = 0; i < 150; i += 1) deep = [deep];
    expect(jcsByStringify(deep)).toBeUndefined();
    expect(jcs(deep)).toBe(`${'['.repeat(150)}1${']'.repeat(150)}`);
  });
});
