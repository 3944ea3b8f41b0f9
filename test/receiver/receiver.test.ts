import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeTraceRequest } from '../../src/receiver/otlp-protobuf.js';
import { startReceiver, type Receiver, type ReceiverOptions } from '../../src/receiver/server.js';
import { sdkTracer } from '../ingest/otel/sdk-export.js';
import { tempDir } from '../helpers.js';

// The receiver over real HTTP (fetch), with request bodies from the OpenTelemetry JS
// SDK's own serializers and responses read back with its own response decoder.
const T = 1767225600000;
const started: Receiver[] = [];
afterEach(async () => {
  for (const r of started.splice(0)) await r.stop();
});

async function receiver(over: Partial<ReceiverOptions> = {}) {
  const problems: string[] = [];
  const spoolPath = join(tempDir('ata-rcv-'), 'spool.jsonl');
  const r = await startReceiver({ port: 0, spoolPath, maxRequestBytes: 1024 * 1024, maxSpoolBytes: 64 * 1024 * 1024, maxSpanBytes: 256 * 1024, onProblem: (m) => problems.push(m), ...over });
  started.push(r);
  return { r, problems, spool: () => readFileSync(spoolPath, 'utf8') };
}

/** Three finished SDK spans: a chat and two execute_tool spans under it. */
function sdkSpans(n = 3) {
  const { exporter, start } = sdkTracer();
  const root = start('chat gpt-4o', T, { 'gen_ai.operation.name': 'chat' });
  for (let i = 1; i < n; i++) start(`execute_tool t${i}`, T + i, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `t${i}`, 'gen_ai.tool.call.id': `c${i}` }, root).end(T + i + 1);
  root.end(T + 100);
  return exporter.getFinishedSpans();
}

const protobufBody = (n?: number) => ProtobufTraceSerializer.serializeRequest(sdkSpans(n))!;
const jsonBody = (n?: number) => JsonTraceSerializer.serializeRequest(sdkSpans(n))!;
const post = (r: Receiver, body: Uint8Array | string, type: string, headers: Record<string, string> = {}) =>
  fetch(`${r.endpoint}/v1/traces`, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'Content-Type': type, ...headers } });
const spanIdsOf = (spool: string) => [...spool.matchAll(/"spanId":"([0-9a-f]+)"/g)].map((m) => m[1]);

describe('OTLP/HTTP receiver', () => {
  it('takes protobuf, answers an empty ExportTraceServiceResponse and writes OTLP JSON lines with hex ids', async () => {
    const { r, spool } = await receiver();
    const res = await post(r, protobufBody(), 'application/x-protobuf');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect(ProtobufTraceSerializer.deserializeResponse(new Uint8Array(await res.arrayBuffer()))).toEqual({});
    await r.stop();
    const lines = spool().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const request = JSON.parse(lines[0]!) as { resourceSpans: Array<{ scopeSpans: Array<{ scope: unknown; spans: Array<Record<string, unknown>> }> }> };
    const spans = request.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(request.resourceSpans[0]!.scopeSpans[0]!.scope).toEqual({ name: 'agent-under-test', version: '1.0.0' });
    expect(spans.map((s) => [s['traceId'], s['spanId'], s['parentSpanId'] ?? null, s['name'], s['startTimeUnixNano']])).toEqual([
      ['00000000000000000000000000000001', '0000000000000002', '0000000000000001', 'execute_tool t1', '1767225600001000000'],
      ['00000000000000000000000000000001', '0000000000000003', '0000000000000001', 'execute_tool t2', '1767225600002000000'],
      ['00000000000000000000000000000001', '0000000000000001', null, 'chat gpt-4o', '1767225600000000000'],
    ]);
    expect(r.stats).toMatchObject({ requests: 1, acceptedSpans: 3, rejectedSpans: 0, refusedRequests: 0 });
  });

  it('takes JSON and gzip bodies', async () => {
    const { r, spool } = await receiver();
    const json = await post(r, jsonBody(), 'application/json; charset=utf-8');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({});
    const gz = await post(r, gzipSync(protobufBody(2)), 'application/x-protobuf', { 'Content-Encoding': 'gzip' });
    expect(gz.status).toBe(200);
    await r.stop();
    expect(spanIdsOf(spool())).toEqual(['0000000000000002', '0000000000000003', '0000000000000001', '0000000000000002', '0000000000000001']);
  });

  it('rejects spans without valid ids through partial success, and keeps the rest', async () => {
    const { r, spool, problems } = await receiver();
    const request = JSON.parse(new TextDecoder().decode(jsonBody())) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }> };
    const spans = request.resourceSpans[0]!.scopeSpans[0]!.spans;
    spans[0]!['traceId'] = '00000000000000000000000000000000';
    delete spans[1]!['spanId'];
    const res = await post(r, JSON.stringify(request), 'application/json');
    expect(res.status).toBe(200);
    const message = '1 span(s): no valid trace id (16 bytes, not all zero); 1 span(s): no valid span id (8 bytes, not all zero)';
    expect(await res.json()).toEqual({ partialSuccess: { rejectedSpans: '2', errorMessage: message } });
    // The same in protobuf: a span id of 4 bytes.
    const bad = encodeTraceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(4, 1), name: 'short id' }, { traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 2), name: 'fine' }] }] }] });
    const proto = await post(r, bad, 'application/x-protobuf');
    expect(proto.status).toBe(200);
    expect(ProtobufTraceSerializer.deserializeResponse(new Uint8Array(await proto.arrayBuffer()))).toEqual({ partialSuccess: { rejectedSpans: 1, errorMessage: '1 span(s): no valid span id (8 bytes, not all zero)' } });
    await r.stop();
    expect(spanIdsOf(spool())).toEqual(['0000000000000001', '0202020202020202']);
    expect(r.stats).toMatchObject({ acceptedSpans: 2, rejectedSpans: 3 });
    expect(problems).toEqual([`rejected ${message}`, 'rejected 1 span(s): no valid span id (8 bytes, not all zero)']);
  });

  it('answers 400 for malformed protobuf or JSON, 415 for other content types or encodings, 404 and 405 elsewhere', async () => {
    const { r, spool } = await receiver();
    const garbage = await post(r, new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), 'application/x-protobuf');
    expect(garbage.status).toBe(400);
    expect(garbage.headers.get('content-type')).toBe('application/x-protobuf');
    const status = new Uint8Array(await garbage.arrayBuffer());
    expect(status[0]).toBe(0x08); // google.rpc.Status: field 1 (code) ...
    expect(status[1]).toBe(3); // ... INVALID_ARGUMENT
    expect(Buffer.from(status).toString('utf8')).toContain('the body is not a valid protobuf ExportTraceServiceRequest');
    const json = await post(r, '{"resourceSpans": [', 'application/json');
    expect(json.status).toBe(400);
    expect(((await json.json()) as { message: string }).message).toMatch(/^the body is not a valid JSON ExportTraceServiceRequest/);
    const notList = await post(r, '{"resourceSpans": {"spans": []}}', 'application/json');
    expect(notList.status).toBe(400);
    expect(await notList.json()).toEqual({ code: 3, message: 'the body is not an ExportTraceServiceRequest: resourceSpans is not a list' });
    expect((await post(r, 'x', 'text/plain')).status).toBe(415);
    expect((await post(r, jsonBody(), 'application/json', { 'Content-Encoding': 'br' })).status).toBe(415);
    expect((await fetch(`${r.endpoint}/v1/metrics`, { method: 'POST', body: '{}' })).status).toBe(404);
    const get = await fetch(`${r.endpoint}/v1/traces`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    await r.stop();
    expect(spool()).toBe('');
    expect(r.stats).toMatchObject({ requests: 7, acceptedSpans: 0, refusedRequests: 7 });
  });

  it('answers 413 for a body over the cap, as sent or as inflated (a gzip bomb stops at the cap)', async () => {
    const { r, spool } = await receiver({ maxRequestBytes: 64 * 1024 });
    const big = await post(r, new Uint8Array(65 * 1024), 'application/x-protobuf');
    expect(big.status).toBe(413);
    // Chunked, with no Content-Length: cut at the cap as it arrives.
    const chunk = new Uint8Array(16 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const chunked = await fetch(`${r.endpoint}/v1/traces`, { method: 'POST', body: stream, headers: { 'Content-Type': 'application/x-protobuf' }, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(Buffer.from(await chunked.arrayBuffer()).toString('utf8')).toContain('the body is longer than 65536 bytes');
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const inflated = await post(r, bomb, 'application/x-protobuf', { 'Content-Encoding': 'gzip' });
    expect(inflated.status).toBe(413);
    expect(Buffer.from(await inflated.arrayBuffer()).toString('utf8')).toContain('the body inflates to more than 65536 bytes');
    await r.stop();
    expect(spool()).toBe('');
  });

  it('past the spool cap a request is refused whole (507) and every span acknowledged before is in the spool', async () => {
    const { r, spool } = await receiver({ maxSpoolBytes: 6000 });
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await post(r, protobufBody(), 'application/x-protobuf')).status);
    await r.stop();
    const accepted = codes.filter((c) => c === 200).length;
    expect(codes).toEqual([...Array<number>(accepted).fill(200), ...Array<number>(10 - accepted).fill(507)]);
    expect(accepted).toBeGreaterThan(0);
    expect(spanIdsOf(spool())).toHaveLength(accepted * 3);
    expect(Buffer.byteLength(spool())).toBeLessThanOrEqual(6000);
    expect(r.stats).toMatchObject({ acceptedSpans: accepted * 3, refusedRequests: 10 - accepted, refusedSpans: (10 - accepted) * 3 });
  });

  it('a body nested past any stack (JSON or protobuf) is a 400, not a crash', async () => {
    const { r, spool } = await receiver({ maxRequestBytes: 8 * 1024 * 1024 });
    const deep = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"x","attributes":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}]}]}]}`;
    const json = await post(r, deep, 'application/json');
    expect(json.status).toBe(400);
    // AnyValue.kvlist_value (6) → KeyValueList.values (1) → KeyValue.value (2) → …, 200,000 levels deep, as protobuf bytes.
    const wrap = (field: number, inner: Buffer) => Buffer.concat([Buffer.from([(field << 3) | 2]), varint(inner.length), inner]);
    const request = (depth: number) => {
      const span = Buffer.concat([wrap(1, Buffer.alloc(16, 1)), wrap(2, Buffer.alloc(8, 1)), wrap(9, wrap(2, nested([2, 1, 6], depth)))]);
      return wrap(1, wrap(2, wrap(2, span)));
    };
    // The same shape 10 levels deep is a valid request (one span).
    expect((await post(r, request(10), 'application/x-protobuf')).status).toBe(200);
    const proto = await post(r, request(200_000), 'application/x-protobuf');
    expect(proto.status).toBe(400);
    // The receiver still answers.
    expect((await post(r, protobufBody(), 'application/x-protobuf')).status).toBe(200);
    await r.stop();
    expect(spanIdsOf(spool())).toEqual(['0101010101010101', '0000000000000002', '0000000000000003', '0000000000000001']);
  });

  it('stop() cuts off a client that never finishes its request (it was never acknowledged) after the grace time', async () => {
    const { r, spool } = await receiver({ stopGraceMs: 300 });
    const socket = connect(r.port, '127.0.0.1');
    await new Promise<void>((done) => socket.on('connect', done));
    socket.write('POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"resourceSpans":');
    socket.on('error', () => undefined);
    await new Promise((done) => setTimeout(done, 100));
    const before = Date.now();
    started.splice(started.indexOf(r), 1);
    await r.stop();
    expect(Date.now() - before).toBeLessThan(5_000);
    expect(spool()).toBe('');
    socket.destroy();
  });

  it('keeps data-named keys as data (__proto__, constructor)', async () => {
    const { r, spool } = await receiver();
    const body = '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"x","__proto__":{"polluted":true},"constructor":1}]}]}]}';
    expect((await post(r, body, 'application/json')).status).toBe(200);
    await r.stop();
    expect(spool()).toBe('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0123456789abcdef0123456789abcdef","spanId":"0123456789abcdef","name":"x","__proto__":{"polluted":true},"constructor":1}]}]}]}\n');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** Length-delimited fields nested `depth` times (the field numbers repeating, innermost first) around nothing, in one pass. */
function nested(fields: number[], depth: number): Buffer {
  const headers: Buffer[] = [];
  let size = 0;
  for (let i = 0; i < depth * fields.length; i++) {
    const header = Buffer.concat([Buffer.from([(fields[i % fields.length]! << 3) | 2]), varint(size)]);
    headers.push(header);
    size += header.length;
  }
  return Buffer.concat(headers.reverse());
}
