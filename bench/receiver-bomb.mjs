// One hostile OTLP request against `receive`: 16 MiB of protobuf holding ~8.4 million empty
// spans, and a real OTLP proto exporter (10 s timeout) exporting 5 spans 200 ms later.
// Prints the receiver's peak RSS (VmHWM, Linux), how long each request took, what each got,
// and the receiver's counts. Usage: node bench/receiver-bomb.mjs [path/to/cli.js] (default dist/cli.js).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const cli = resolve(process.argv[2] ?? 'dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'ata-bomb-'));
const state = join(dir, 'state.json');
const child = spawn(process.execPath, [cli, 'receive', '--port', '0', '--out', join(dir, 'spool.jsonl'), '--state', state], { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
child.stderr.on('data', (c) => (stderr += c));
const read = () => {
  try {
    return JSON.parse(readFileSync(state, 'utf8'));
  } catch {
    return null;
  }
};
let listening = null;
for (let i = 0; i < 400 && listening === null; i++) {
  await new Promise((r) => setTimeout(r, 50));
  listening = read();
}
if (!listening) throw new Error(`the receiver did not start: ${stderr}`);
const url = `${listening.endpoint}/v1/traces`;

const n = 8 * 1024 * 1024 - 16;
const varint = (v) => {
  const out = [];
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Buffer.from(out);
};
const scope = Buffer.alloc(n * 2);
for (let i = 0; i < n; i++) scope[i * 2] = 0x12;
const resource = Buffer.concat([Buffer.from([0x12]), varint(scope.length), scope]);
const bomb = Buffer.concat([Buffer.from([0x0a]), varint(resource.length), resource]);

const memory = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
const tracer = provider.getTracer('bench');
for (let i = 0; i < 5; i++) tracer.startSpan(`execute_tool t${i}`).end();
const exporter = new OTLPTraceExporter({ url, timeoutMillis: 10_000 });

const t0 = performance.now();
const bombDone = fetch(url, { method: 'POST', body: new Uint8Array(bomb), headers: { 'Content-Type': 'application/x-protobuf' } })
  .then((res) => ({ status: res.status, ms: Math.round(performance.now() - t0) }))
  .catch((error) => ({ status: String(error.cause?.code ?? error.message), ms: Math.round(performance.now() - t0) }));
await new Promise((r) => setTimeout(r, 200));
const t1 = performance.now();
const exported = await new Promise((done) => exporter.export(memory.getFinishedSpans(), (result) => done({ code: result.code === 0 ? 'success' : `failed (${result.error?.message ?? ''})`, ms: Math.round(performance.now() - t1) })));
const bombResult = await bombDone;
await exporter.shutdown();
const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
child.kill('SIGTERM');
await new Promise((r) => child.on('close', r));
const stopped = read();
console.log(JSON.stringify({ bombBytes: bomb.length, bomb: bombResult, export: exported, peakRssMiB: peak ? Math.round(Number(peak) / 1024) : null, stats: stopped?.stats ?? null }));
rmSync(dir, { recursive: true, force: true });
