import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { cpSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { runBundle } from '../cli/run-cli.js';
import { tempDir } from '../helpers.js';

// `agent-trace-audit run -- node suite.mjs`, with the bundle (dist/cli.js) and a suite
// that exports through the real OpenTelemetry JS SDK and its real OTLP/HTTP exporters.
const SUITE = resolve('test/receiver/fixtures/genai-suite.mjs');

/** The spans of an OTLP JSON lines file, read with JSON.parse alone (not our reader). */
function spansOf(path: string): Array<Record<string, unknown>> {
  const spans: Array<Record<string, unknown>> = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const request = JSON.parse(line) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }> };
    for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
  }
  return spans;
}

describe.each(['proto', 'json'] as const)('run -- node suite.mjs %s (real OTLP exporter)', (exporter) => {
  it('audits what the suite exported: exact counts and findings, and the same report as the same spans written to a file', () => {
    const cwd = tempDir('ata-run-');
    const fileCopy = tempDir('ata-file-');
    const run = runBundle(['run', '--port', '0', '--out', 'spans.jsonl', '--format', 'json', '--', process.execPath, SUITE, exporter], cwd, {
      SUITE_FILE_EXPORT: join(fileCopy, 'spans.jsonl'),
      ...(exporter === 'json' ? { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } : {}),
    });
    expect(run.stderr).toMatch(/^receiving OTLP traces on http:\/\/127\.0\.0\.1:\d+\/v1\/traces\nreceived 4 span\(s\) in 1 request\(s\)\n$/);
    expect(run.code).toBe(1);
    // Counted from the spool with JSON.parse: 4 spans (agent, chat, two execute_tool), ids in hex.
    const spans = spansOf(join(cwd, 'spans.jsonl'));
    expect(spans.map((s) => [s['spanId'], s['parentSpanId'] ?? null, s['name']])).toEqual([
      ['0000000000000002', '0000000000000001', 'chat gpt-4o'],
      ['0000000000000003', '0000000000000001', 'execute_tool get_weather'],
      ['0000000000000004', '0000000000000001', 'execute_tool search_docs'],
      ['0000000000000001', null, 'invoke_agent weather_bot'],
    ]);
    const report = reportSchema.parse(JSON.parse(run.stdout));
    // The chat asked for c1, c2 and c3; c1 and c2 have execute_tool results; c3 none.
    expect(report.summary).toEqual({ files: 1, runs: 1, toolCalls: 3, toolResults: 2, findings: { error: 1, warning: 2, note: 0 } });
    expect(report.findings.map((f) => [f.ruleId, f.severity, f.callId, f.file, f.line])).toEqual([
      ['internal-detail-leak', 'warning', 'c2', 'spans.jsonl', 1],
      ['orphan-call', 'error', 'c3', 'spans.jsonl', 1],
      ['stack-trace-in-result', 'warning', 'c2', 'spans.jsonl', 1],
    ]);
    // The SDK's own OTLP JSON serializer wrote the same spans to a file (as the collector's file exporter would): same report, byte for byte.
    const fromFile = runBundle(['audit', 'spans.jsonl', '--format', 'json'], fileCopy);
    expect(fromFile.code).toBe(1);
    expect(run.stdout).toBe(fromFile.stdout);
  }, 60_000);
});

describe('run: the command and the port', () => {
  it('without --out the spool is audited as otlp-receiver/otlp-spans.jsonl; trace files named are audited with it', () => {
    const cwd = tempDir('ata-run-');
    cpSync('examples/clean/span-log.jsonl', join(cwd, 'span-log.jsonl'));
    const run = runBundle(['run', '--port', '0', '--format', 'json', 'span-log.jsonl', '--', process.execPath, SUITE, 'proto'], cwd);
    expect(run.code).toBe(1);
    const report = reportSchema.parse(JSON.parse(run.stdout));
    expect(report.files.map((f) => [f.path, f.format])).toEqual([
      ['otlp-receiver/otlp-spans.jsonl', 'otlp-json'],
      ['span-log.jsonl', 'native-jsonl'],
    ]);
    expect(report.files[0]).toEqual({ path: 'otlp-receiver/otlp-spans.jsonl', format: 'otlp-json', records: 7, runs: 1, skipped: [], toolCalls: 3, toolResults: 2 });
  }, 60_000);

  it('a command that does not exist: one line, exit 127, no audit', () => {
    const run = runBundle(['run', '--port', '0', '--', 'no-such-command-ata'], tempDir('ata-run-'));
    expect(run.code).toBe(127);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/\ncommand-not-found: no-such-command-ata: no such command \(looked up on PATH\)\n$/);
  });

  it('a clean audit of a command that failed exits with the command\'s code', () => {
    // No span was exported: nothing audited is a failed audit (exit 1) unless --allow-empty.
    const strict = runBundle(['run', '--port', '0', '--out', 'none.jsonl', '--', process.execPath, '-e', 'process.exit(3)'], tempDir('ata-run-'));
    expect(strict.code).toBe(1);
    const run = runBundle(['run', '--port', '0', '--out', 'none.jsonl', '--allow-empty', '--', process.execPath, '-e', 'process.exit(3)'], tempDir('ata-run-'));
    expect(run.stderr).toContain('the command exited with code 3\n');
    expect(run.code).toBe(3);
  });

  it('a port in use: one line, exit 2', async () => {
    const holder = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const port = (holder.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, [resolve('dist/cli.js'), 'run', '--port', String(port), '--', process.execPath, '-e', ''], { cwd: tempDir('ata-run-') });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(code).toBe(2);
      expect(stderr).toBe(`receiver-port-in-use: port ${port} on 127.0.0.1 is in use; stop what holds it or pass --port <another>\n`);
    } finally {
      holder.close();
    }
  });

  it('--debug after -- is the command\'s, not ours', () => {
    const probe = 'process.stderr.write(`child debug: ${process.env.AGENT_TRACE_AUDIT_DEBUG ?? "unset"}\\n`)';
    const run = runBundle(['run', '--port', '0', '--out', 'none.jsonl', '--', process.execPath, '-e', probe, '--', '--debug'], tempDir('ata-run-'));
    expect(run.stderr).toContain('child debug: unset\n');
    const ours = runBundle(['run', '--port', '0', '--out', 'none.jsonl', '--debug', '--', process.execPath, '-e', probe], tempDir('ata-run-'));
    expect(ours.stderr).toContain('child debug: 1\n');
  });

  it('usage errors name what is missing', () => {
    expect(runBundle(['run', '--port', '0'], tempDir()).stderr).toContain('usage: run needs a command after --');
    expect(runBundle(['run', '--port', '99999', '--', 'true'], tempDir()).stderr).toContain('usage: --port must be a whole number from 0 to 65535, not "99999"');
  });
});
