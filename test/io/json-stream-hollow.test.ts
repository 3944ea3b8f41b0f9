import { describe, expect, it } from 'vitest';
import { indexLines } from '../../src/ingest/read/json-locate.js';
import { JsonStreamScanner, type ScanEvent } from '../../src/io/json-stream/scanner.js';
import { auditFiles, findingsOf } from '../helpers.js';

const BIG = 1 << 30;
const SPANS = ['$.resourceSpans[*].scopeSpans[*].spans[*]'];
const HOLLOW = ['$.resourceSpans[*]'];

function scan(text: string, chunk: number, hollow?: string[], rest = BIG) {
  const scanner = new JsonStreamScanner({ lists: SPANS, hollow, maxElementBytes: BIG, maxRestBytes: rest });
  const bytes = Buffer.from(text);
  const events: ScanEvent[] = [];
  for (let at = 0; at < bytes.length; at += chunk) events.push(...scanner.push(Buffer.from(bytes.subarray(at, at + chunk))));
  events.push(...scanner.end());
  return { events, scanner };
}

/** An OTLP document of `batches` batches, one per trace, each with a resource of `attrs` attributes and two spans, one batch per line. */
function otlpDocument(batches: number, attrs: number, tail = ''): string {
  const out: string[] = [];
  for (let b = 0; b < batches; b += 1) {
    const attributes = Array.from({ length: attrs }, (_, k) => ({ key: `host.attr${k}`, value: { stringValue: `value ${k} `.repeat(20) } }));
    const trace = (b + 1).toString(16).padStart(32, '0');
    const span = (s: number, extra: object) => ({ traceId: trace, spanId: (b * 2 + s + 1).toString(16).padStart(16, '0'), startTimeUnixNano: '1000000', endTimeUnixNano: '2000000', ...extra });
    const tool = { name: 'execute_tool grep', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'grep' } }, { key: 'gen_ai.tool.call.id', value: { stringValue: `call_${b}` } }] };
    const spans = [span(0, { name: 'chat m', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }] }), span(1, tool)];
    out.push(JSON.stringify({ resource: { attributes }, scopeSpans: [{ scope: { name: 'test' }, spans }] }));
  }
  return `{"resourceSpans": [\n${out.join(',\n')}\n]${tail}}\n`;
}

describe('hollow lists (ScannerOptions.hollow): items left out of the rest once read', () => {
  it('gives the same elements, at every chunk size, and a rest that does not grow with the batches', () => {
    const text = otlpDocument(40, 3, ',\n"after": {\n"k": 1}');
    for (const chunk of [1, 7, 4096, BIG]) {
      const plain = scan(text, chunk);
      const hollow = scan(text, chunk, HOLLOW);
      expect(hollow.events).toEqual(plain.events.map((e) => (e.kind === 'element' ? { ...e, restBytes: expect.any(Number) as number } : e)));
      expect(hollow.events.filter((e) => e.kind === 'element')).toHaveLength(80);
      // The last item takes the line break before "]" with it.
      expect(hollow.scanner.restText()).toBe('{"resourceSpans": [],\n"after": {\n"k": 1}}\n');
      // The rest's containers keep the file's lines: "after" opens on line 43 (after the list's line, 40 batches and "],").
      const restText = hollow.scanner.restText();
      const lineOf = indexLines(restText, 8, 1, hollow.scanner.restJumps());
      expect(lineOf(['after'])).toBe(43);
      expect(indexLines(plain.scanner.restText(), 8, 1, plain.scanner.restJumps())(['after'])).toBe(43);
    }
    expect(scan(otlpDocument(400, 3), 4096, HOLLOW).scanner.restText()).toBe(scan(otlpDocument(4, 3), 4096, HOLLOW).scanner.restText());
  });

  it('keeps an item that is not JSON, for the parse of the rest to report; a rest of many batches stays under its cap', () => {
    const broken = otlpDocument(3, 1).replace('"scope":{"name":"test"}', '"scope":{"name":tru}');
    const { events, scanner } = scan(broken, 64, HOLLOW);
    expect(events.filter((e) => e.kind === 'element')).toHaveLength(6);
    expect(() => JSON.parse(scanner.restText()) as unknown).toThrow();
    const many = otlpDocument(300, 10);
    expect(scan(many, 65536, undefined, 100_000).events.filter((e) => e.kind === 'error')).toHaveLength(1);
    expect(scan(many, 65536, HOLLOW, 100_000).events.filter((e) => e.kind === 'element')).toHaveLength(600);
  });
});

describe('a streamed OTLP document keeps none of its batches (resources and scopes) until its end', () => {
  it('300 batches with 7 KB of resource each (2.2 MB outside the span lists) are read whole under a 1 MB limits.max-element-bytes', async () => {
    const text = otlpDocument(300, 30);
    expect(text.length).toBeGreaterThan(2_200_000);
    const result = await auditFiles({ 'otlp.json': text }, { limits: { 'max-element-bytes': 1_000_000 } });
    expect(findingsOf(result, 'malformed-record')).toEqual([]);
    expect(result.files.map((f) => [f.format, f.records])).toEqual([['otlp-json', 900]]);
    expect(result.runs).toHaveLength(300);
  });
});
