import { isObject, own, type JsonObject } from '../ingest/facts/fields.js';

/** One accepted export request, as the spool lines that hold it. */
export interface SpoolBatch {
  /** OTLP JSON lines (no newline), each `{"resourceSpans":[…]}` holding one resource, one scope and a share of its spans. */
  readonly lines: readonly string[];
  readonly bytes: number;
  readonly acceptedSpans: number;
  readonly rejectedSpans: number;
  /** Why spans were rejected (the first reason of each kind), for partial_success.error_message. */
  readonly rejectMessage: string;
}

/** A body that is not an ExportTraceServiceRequest at all: answered 400. */
export class MalformedRequestError extends Error {}

/** Ids as they arrive: hex in OTLP/JSON, base64 once protobufjs has turned the bytes into JSON data. */
export type IdSpelling = 'hex' | 'base64';

const HEX = /^[0-9a-fA-F]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Lines are kept well under the audit's longest line (16 MiB): spans are grouped up to this many bytes. */
const LINE_TARGET_BYTES = 1024 * 1024;

/**
 * Checks an export request and cuts it into spool lines. A span without a valid
 * trace id or span id (16 and 8 non-zero bytes) or longer than `maxSpanBytes`
 * is rejected (reported back as partial success); anything else is kept as sent,
 * with its ids in lowercase hex as the collector's file exporter writes them.
 */
export function spoolBatch(data: unknown, spelling: IdSpelling, maxSpanBytes: number): SpoolBatch {
  if (!isObject(data)) throw new MalformedRequestError('the body is not an ExportTraceServiceRequest');
  const resourceSpans = own(data, 'resourceSpans') ?? [];
  if (!Array.isArray(resourceSpans)) throw new MalformedRequestError('resourceSpans is not a list');
  const lines: string[] = [];
  const reasons = new Map<string, number>();
  let bytes = 0;
  let accepted = 0;
  const reject = (reason: string) => reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  for (const rs of resourceSpans) {
    if (!isObject(rs)) throw new MalformedRequestError('a resourceSpans entry is not an object');
    const scopeSpans = own(rs, 'scopeSpans') ?? [];
    if (!Array.isArray(scopeSpans)) throw new MalformedRequestError('scopeSpans is not a list');
    const resourceHead = headOf(rs, 'resource');
    for (const ss of scopeSpans) {
      if (!isObject(ss)) throw new MalformedRequestError('a scopeSpans entry is not an object');
      const spans = own(ss, 'spans') ?? [];
      if (!Array.isArray(spans)) throw new MalformedRequestError('spans is not a list');
      const open = `{"resourceSpans":[{${resourceHead}"scopeSpans":[{${headOf(ss, 'scope')}"spans":[`;
      const close = ']}]}]}';
      let chunk: string[] = [];
      let chunkBytes = 0;
      const flush = () => {
        if (chunk.length === 0) return;
        const line = `${open}${chunk.join(',')}${close}`;
        lines.push(line);
        bytes += Buffer.byteLength(line) + 1;
        chunk = [];
        chunkBytes = 0;
      };
      for (const raw of spans) {
        const span = checkedSpan(raw, spelling);
        if (typeof span === 'string') {
          reject(span);
          continue;
        }
        const text = JSON.stringify(span);
        if (text.length > maxSpanBytes) {
          reject(`a span is longer than ${maxSpanBytes} bytes`);
          continue;
        }
        if (chunk.length > 0 && chunkBytes + text.length > LINE_TARGET_BYTES) flush();
        chunk.push(text);
        chunkBytes += text.length + 1;
        accepted += 1;
      }
      flush();
    }
  }
  let rejected = 0;
  for (const n of reasons.values()) rejected += n;
  const rejectMessage = [...reasons.entries()].map(([reason, n]) => `${n} span(s): ${reason}`).join('; ');
  return { lines, bytes, acceptedSpans: accepted, rejectedSpans: rejected, rejectMessage };
}

/** `"resource":{…},"schemaUrl":"…",` (or `"scope":…`), as sent; empty when absent. */
function headOf(obj: JsonObject, key: 'resource' | 'scope'): string {
  const value = own(obj, key);
  const schemaUrl = own(obj, 'schemaUrl');
  let head = isObject(value) ? `"${key}":${JSON.stringify(value)},` : '';
  if (typeof schemaUrl === 'string' && schemaUrl !== '') head += `"schemaUrl":${JSON.stringify(schemaUrl)},`;
  return head;
}

/** The span with hex ids, or why it is rejected. */
function checkedSpan(raw: unknown, spelling: IdSpelling): JsonObject | string {
  if (!isObject(raw)) return 'a span is not an object';
  const traceId = hexId(own(raw, 'traceId'), 16, spelling);
  if (traceId === null) return 'no valid trace id (16 bytes, not all zero)';
  const spanId = hexId(own(raw, 'spanId'), 8, spelling);
  if (spanId === null) return 'no valid span id (8 bytes, not all zero)';
  const out: JsonObject = Object.assign(Object.create(null) as JsonObject, raw, { traceId, spanId });
  const parent = own(raw, 'parentSpanId');
  if (parent !== undefined && parent !== '') {
    const parentSpanId = hexId(parent, 8, spelling);
    if (parentSpanId === null) return 'an invalid parent span id';
    out['parentSpanId'] = parentSpanId;
  }
  const links = own(raw, 'links');
  if (Array.isArray(links)) {
    out['links'] = links.map((link: unknown) => {
      if (!isObject(link)) return link;
      const copy: JsonObject = Object.assign(Object.create(null) as JsonObject, link);
      const t = hexId(own(link, 'traceId'), 16, spelling);
      const s = hexId(own(link, 'spanId'), 8, spelling);
      if (t !== null) copy['traceId'] = t;
      if (s !== null) copy['spanId'] = s;
      return copy;
    });
  }
  return out;
}

/** Lowercase hex of an id of `size` bytes, or null when it is absent, malformed or all zero. */
function hexId(value: unknown, size: number, spelling: IdSpelling): string | null {
  if (typeof value !== 'string') return null;
  let hex: string;
  if (spelling === 'hex') {
    if (value.length !== size * 2 || !HEX.test(value)) return null;
    hex = value.toLowerCase();
  } else {
    if (!BASE64.test(value)) return null;
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length !== size) return null;
    hex = bytes.toString('hex');
  }
  return /^0+$/.test(hex) ? null : hex;
}
