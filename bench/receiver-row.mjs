// The receiver row of `npm run bench` (also alone: `node bench/run.mjs --only receiver`):
// `dist/cli.js receive` under the RSS probe takes SPANS spans that the real OpenTelemetry
// JS SDK exports with its real OTLP protobuf exporter in batches of 512
// (test/receiver/fixtures/genai-suite.mjs bulk:<n>). Prints spans per second (wall time of
// the suite, from its first span to its exporter's shutdown) and the receiver's peak RSS,
// and checks that the spool holds every span.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export async function measureReceiver({ root, cli, probe, out, spans }) {
  const dir = join(out, 'receiver');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const state = join(dir, 'state.json');
  const spool = join(dir, 'spool.jsonl');
  const rssFile = join(dir, 'rss.txt');
  const receiver = spawn(process.execPath, ['--import', probe, cli, 'receive', '--port', '0', '--out', spool, '--state', state], {
    cwd: root,
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const closed = new Promise((resolve) => receiver.on('close', resolve));
  while (!existsSync(state)) await new Promise((resolve) => setTimeout(resolve, 50));
  const { endpoint } = JSON.parse(readFileSync(state, 'utf8'));
  const started = process.hrtime.bigint();
  const suite = spawn(process.execPath, [join(root, 'test', 'receiver', 'fixtures', 'genai-suite.mjs'), 'proto', `bulk:${spans}`], {
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const suiteCode = await new Promise((resolve) => suite.on('close', resolve));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  receiver.kill('SIGTERM');
  await closed;
  if (suiteCode !== 0) throw new Error(`the suite exited ${suiteCode} (an export failed)`);
  let received = 0;
  for await (const line of createInterface({ input: createReadStream(spool) })) {
    if (line === '') continue;
    for (const rs of JSON.parse(line).resourceSpans) for (const ss of rs.scopeSpans) received += ss.spans.length;
  }
  const peakRssMiB = Number(readFileSync(rssFile, 'utf8').trim()) / 1024 / 1024;
  return { spans, received, seconds: Math.round(seconds * 1000) / 1000, spansPerSecond: Math.round(spans / seconds), peakRssMiB: Math.round(peakRssMiB * 10) / 10 };
}
