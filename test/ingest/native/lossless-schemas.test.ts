import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalSha256, lossless as losslessInput } from '../../../src/canonical/index.js';
import { losslessSchemas } from '../../../src/ingest/native/lossless-schemas.js';

describe('losslessSchemas', () => {
  it('keeps float lexemes of catalog schemas, which the Python hash needs', () => {
    const line = readFileSync('test/fixtures/catalog/python-schemas.jsonl', 'utf8').split('\n')[0]!;
    const recorded = (JSON.parse(line) as { schema_sha256: Record<string, string> }).schema_sha256['set_ratio'];
    const lossless = losslessSchemas(line).get('set_ratio')!;
    expect(canonicalSha256(losslessInput(lossless), 'python')).toBe(recorded);
    // JSON.parse turns maximum 1.0 into 1: the plain value cannot reproduce CPython's hash.
    const plain = (JSON.parse(line) as { schemas: Record<string, unknown> }).schemas['set_ratio'];
    expect(canonicalSha256(plain, 'python')).not.toBe(recorded);
  });

  it('reads `schemas` and `tools` entries as collectSchemas does, and nothing from bad text', () => {
    const text = '{"type":"catalog","schemas":{"a":{"maximum":1.0}},"tools":[{"name":"b","input_schema":{"x":2.50}},{"name":"a","parameters":null,"schema":true},{"name":7}]}';
    const got = losslessSchemas(text);
    expect([...got.keys()]).toEqual(['a', 'b']);
    expect(got.get('a')).toBe(true);
    expect(got.get('b')).toEqual({ kind: 'object', entries: [['x', { kind: 'number', text: '2.50' }]] });
    expect(losslessSchemas('{"schemas":')).toEqual(new Map());
    expect(losslessSchemas('[1]')).toEqual(new Map());
  });
});
