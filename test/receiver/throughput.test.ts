import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

// 100,000 spans from the real OTLP protobuf exporter, in batches of 512, into `dist/cli.js
// receive`, stopped with SIGTERM: the spool holds every one (counted with JSON.parse alone).
const SPANS = 100_000;

describe('receive: 100,000 spans from the real exporter', () => {
  it('drops none', async () => {
    const dir = tempDir('ata-bulk-');
    const state = join(dir, 'state.json');
    const spool = join(dir, 'spool.jsonl');
    const receiver = spawn(process.execPath, [resolve('dist/cli.js'), 'receive', '--port', '0', '--out', spool, '--state', state], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    receiver.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((done) => receiver.on('close', done));
    const read = () => {
      try {
        return JSON.parse(readFileSync(state, 'utf8')) as { endpoint: string; stopped?: boolean; stats?: Record<string, number> };
      } catch {
        return null;
      }
    };
    let listening = read();
    for (let i = 0; listening === null && i < 400; i++) {
      await new Promise((done) => setTimeout(done, 50));
      listening = read();
    }
    expect(listening).not.toBeNull();
    const endpoint = listening!.endpoint;
    const suite = spawn(process.execPath, [resolve('test/receiver/fixtures/genai-suite.mjs'), 'proto', `bulk:${SPANS}`], {
      env: { PATH: process.env['PATH'] ?? '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let suiteErr = '';
    suite.stderr.on('data', (chunk: Buffer) => (suiteErr += chunk.toString()));
    const suiteCode = await new Promise<number | null>((done) => suite.on('close', done));
    expect(suiteErr).toBe('');
    expect(suiteCode).toBe(0);
    receiver.kill('SIGTERM');
    expect(await closed).toBe(0);

    const ids = new Set<string>();
    let spans = 0;
    let lines = 0;
    for (const line of readFileSync(spool, 'utf8').split('\n')) {
      if (line === '') continue;
      lines += 1;
      const request = JSON.parse(line) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ spanId: string }> }> }> };
      for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) {
        spans += 1;
        ids.add(s.spanId);
      }
    }
    expect(spans).toBe(SPANS);
    expect(ids.size).toBe(SPANS);
    // 195 full batches of 512 and one of 160, one line each.
    expect(lines).toBe(196);
    expect(read()).toMatchObject({ stopped: true, stats: { requests: 196, acceptedSpans: SPANS, rejectedSpans: 0, refusedRequests: 0, refusedSpans: 0 } });
    expect(stderr).toContain(`received ${SPANS} span(s) in 196 request(s)\n`);
  }, 240_000);
});
