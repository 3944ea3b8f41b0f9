import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { OTLPTraceExporter as HttpExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver, type ReceiverOptions } from '../../src/receiver/server.js';
import { describeStats } from '../../src/receiver/stats.js';
import { countJsonSpans, countProtobufSpans } from '../../src/receiver/span-count.js';
import { sdkTracer } from '../ingest/otel/sdk-export.js';
import { tempDir } from '../helpers.js';

// The receiver on 127.0.0.1 under load from the real OpenTelemetry JS exporters
// (keep-alive HTTP agents, 10 s timeout), and against a request of millions of empty spans.
const T = 1767225600000;
const MIB = 1024 * 1024;
const started: Receiver[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const r of started.splice(0)) await r.stop();
});

async function receiver(over: Partial<ReceiverOptions> = {}) {
  const problems: string[] = [];
  const spoolPath = join(tempDir('ata-load-'), 'spool.jsonl');
  const r = await startReceiver({ port: 0, spoolPath, maxRequestBytes: 16 * MIB, maxSpoolBytes: 256 * MIB, maxSpanBytes: 4 * MIB, onProblem: (m) => problems.push(m), ...over });
  started.push(r);
  return { r, problems, spoolPath };
}

/** `n` finished SDK spans with ids unique across calls (each call is its own trace). */
let traces = 0;
function spans(n: number): ReadableSpan[] {
  const { exporter, start } = sdkTracer();
  for (let i = 0; i < n; i++) start(`execute_tool t${i}`, T + i, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `t${i}` }).end(T + i + 1);
  traces += 1;
  // The counting id generator restarts per tracer: give each batch its own trace id.
  return exporter.getFinishedSpans().map((s) => ({ ...s, spanContext: () => ({ ...s.spanContext(), traceId: traces.toString(16).padStart(32, '0') }) }) as ReadableSpan);
}

/** Exports through a real exporter; resolves with the ExportResult code (0 success, 1 failed). */
function exportWith(exporter: ProtoExporter | HttpExporter, batch: ReadableSpan[]): Promise<number> {
  return new Promise((done) => exporter.export(batch, (result) => done(result.code)));
}

/** Spans in the spool, counted with JSON.parse alone. */
function spooled(path: string): number {
  let n = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const request = JSON.parse(line) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: unknown[] }> }> };
    for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
  }
  return n;
}

/** ExportTraceServiceRequest with one resource, one scope and `n` empty spans (2 bytes each), built by hand. */
function emptySpansProtobuf(n: number): Buffer {
  const varint = (v: number) => {
    const out: number[] = [];
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
    return Buffer.from(out);
  };
  const scope = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) scope[i * 2] = 0x12; // field 2 (spans), length 0
  const resource = Buffer.concat([Buffer.from([0x12]), varint(scope.length), scope]); // field 2 (scope_spans)
  return Buffer.concat([Buffer.from([0x0a]), varint(resource.length), resource]); // field 1 (resource_spans)
}

describe('the receiver under load from real exporters', () => {
  it('40 keep-alive proto exporters, 3 exports each at once: all 120 succeed, every span kept once, nothing dropped', async () => {
    const { r, problems, spoolPath } = await receiver();
    const exporters = Array.from({ length: 40 }, () => new ProtoExporter({ url: `${r.endpoint}/v1/traces`, timeoutMillis: 10_000 }));
    const results = await Promise.all(exporters.flatMap((e) => [0, 1, 2].map(() => exportWith(e, spans(5)))));
    expect(results.filter((code) => code !== 0)).toEqual([]);
    expect(results).toHaveLength(120);
    await Promise.all(exporters.map((e) => e.shutdown()));
    const stats = await r.stop();
    expect(stats).toMatchObject({ requests: 120, acceptedSpans: 600, rejectedSpans: 0, refusedRequests: 0, droppedConnections: 0 });
    expect(spooled(spoolPath)).toBe(600);
    expect(problems).toEqual([]);
  }, 60_000);

  it('a connection past the cap is dropped, counted and reported, never silently', async () => {
    const { r, problems } = await receiver({ maxConnections: 8 });
    for (let i = 0; i < 12; i++) {
      const socket = connect(r.port, '127.0.0.1');
      socket.on('error', () => {});
      sockets.push(socket);
      await new Promise((done) => socket.once('connect', done));
    }
    for (let i = 0; i < 100 && r.stats.droppedConnections < 4; i++) await new Promise((done) => setTimeout(done, 20));
    expect(r.stats.droppedConnections).toBe(4);
    expect(problems).toEqual(['dropped a connection: 8 connections are open (1 dropped so far); its exporter sees a reset and may retry']);
    for (const s of sockets.splice(0)) s.destroy();
    const stats = await r.stop();
    expect(describeStats(stats)).toBe('received 0 span(s) in 0 request(s); not kept: 4 connection(s) dropped on arrival (too many open at once)');
  });

  it('16 MiB of empty protobuf spans is refused (413) from its bytes, nothing counted; an export sent meanwhile succeeds', async () => {
    const { r, problems, spoolPath } = await receiver();
    const bomb = emptySpansProtobuf(8 * MIB - 16);
    expect(bomb.length).toBeLessThanOrEqual(16 * MIB);
    const exporter = new ProtoExporter({ url: `${r.endpoint}/v1/traces`, timeoutMillis: 10_000 });
    const [refused, exported] = await Promise.all([
      fetch(`${r.endpoint}/v1/traces`, { method: 'POST', body: new Uint8Array(bomb), headers: { 'Content-Type': 'application/x-protobuf' } }),
      exportWith(exporter, spans(7)),
    ]);
    expect(refused.status).toBe(413);
    expect(exported).toBe(0);
    await exporter.shutdown();
    const stats = await r.stop();
    expect(stats).toMatchObject({ requests: 2, acceptedSpans: 7, refusedRequests: 1, refusedSpans: 0 });
    expect(spooled(spoolPath)).toBe(7);
    expect(problems).toEqual(['refused a request to /v1/traces: 413 the request holds more than 50000 spans, the most the receiver takes in one request; send smaller batches']);
  }, 60_000);

  it('a real exporter whose batch is over the cap gets a failure and adds no span; a batch at the cap is kept whole', async () => {
    const { r, spoolPath } = await receiver({ maxSpansPerRequest: 20 });
    const proto = new ProtoExporter({ url: `${r.endpoint}/v1/traces` });
    const json = new HttpExporter({ url: `${r.endpoint}/v1/traces` });
    expect(await exportWith(proto, spans(21))).toBe(1);
    expect(await exportWith(json, spans(21))).toBe(1);
    expect(await exportWith(proto, spans(20))).toBe(0);
    expect(await exportWith(json, spans(20))).toBe(0);
    await Promise.all([proto.shutdown(), json.shutdown()]);
    const stats = await r.stop();
    expect(stats).toMatchObject({ acceptedSpans: 40, refusedRequests: 2, refusedSpans: 0 });
    expect(spooled(spoolPath)).toBe(40);
  }, 60_000);
});

describe('span counters agree with the decoders', () => {
  it('protobuf and JSON bodies of the real serializers: the count is the number of spans; past max it stops', () => {
    for (const n of [0, 1, 3, 512]) {
      const batch = spans(n);
      const json = JsonTraceSerializer.serializeRequest(batch)!;
      expect(countJsonSpans(Buffer.from(json).toString('utf8'), 1000)).toEqual({ over: false, spans: n });
      expect(countJsonSpans(Buffer.from(json).toString('utf8'), n - 1)).toEqual(n === 0 ? { over: false, spans: 0 } : { over: true });
    }
    expect(countProtobufSpans(emptySpansProtobuf(100), 100)).toEqual({ over: false, spans: 100 });
    expect(countProtobufSpans(emptySpansProtobuf(101), 100)).toEqual({ over: true });
  });

  it('JSON: spans inside attributes, escaped keys, strings with braces, other lists', () => {
    const text = JSON.stringify({
      resourceSpans: [
        { resource: { attributes: [{ key: 'spans', value: { arrayValue: { values: [{}, {}] } } }] }, scopeSpans: [{ scope: { name: '{[' }, spans: [{ name: '}]"{', events: [{ spans: [{}] }] }, {}] }] },
        { scopeSpans: [{ spans: [{}] }, { spans: [] }] },
      ],
      spans: [{}, {}],
    }).replace('"scopeSpans"', '"scope\\u0053pans"');
    expect(countJsonSpans(text, 100)).toEqual({ over: false, spans: 3 });
  });
});
